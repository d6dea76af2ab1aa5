#include "folio_backtrace.h"
#include <stdint.h>
#include <unwind.h>

struct folio_frames {
    void **frames;
    int capacity;
    int count;
    int skip; /* folio_backtrace's own frame, as glibc's backtrace leaves out its own */
};

static _Unwind_Reason_Code folio_frame(struct _Unwind_Context *context, void *argument) {
    struct folio_frames *state = argument;
    uintptr_t address = _Unwind_GetIP(context);
    if (address == 0) return _URC_END_OF_STACK;
    if (state->skip > 0) { state->skip -= 1; return _URC_NO_REASON; }
    if (state->count >= state->capacity) return _URC_END_OF_STACK;
    state->frames[state->count++] = (void *)address;
    return _URC_NO_REASON;
}

int folio_backtrace(void **frames, int capacity) {
    if (frames == 0 || capacity <= 0) return 0;
    struct folio_frames state = { frames, capacity, 0, 1 };
    _Unwind_Backtrace(folio_frame, &state);
    return state.count;
}
