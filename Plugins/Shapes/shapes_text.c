/* A growable text buffer for views, descriptions and serialized bytes; lines cut by cells with folio_text.h. */
#include "shapes_internal.h"

#include <folio_text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- A growable text buffer ------------------------------------------------------------------------------ */

void text_add(text *t, const char *bytes, size_t n) {
    if (t->failed) return;
    if (t->length + n + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        while (capacity < t->length + n + 1) capacity *= 2;
        char *grown = realloc(t->data, capacity);
        if (grown == NULL) { t->failed = 1; return; }
        t->data = grown;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, bytes, n);
    t->length += n;
    t->data[t->length] = 0;
}

folio_status text_finish(text *t, folio_buffer *out, folio_buffer *error) {
    folio_status status = t->failed ? FOLIO_STATUS_OUT_OF_MEMORY : folio_buffer_set(out, t->data ? t->data : "", t->length);
    free(t->data);
    if (status != FOLIO_STATUS_OK) return folio_fail(error, status, "out of memory");
    return FOLIO_STATUS_OK;
}


void text_add_fit(text *t, const char *line, long long cells) {
    size_t size = strlen(line);
    text_add(t, line, folio_text_fit(line, size, cells < 0 ? 0 : cells > 4096 ? 4096 : (int)cells, NULL));
}
