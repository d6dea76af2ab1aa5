#ifndef FOLIO_SHAPES_INTERNAL_H
#define FOLIO_SHAPES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "shapes.h"

#define COLOR_CAPACITY 32

enum { KIND_RECT = 0, KIND_ELLIPSE = 1 };

typedef struct shape {
    int kind;
    long long x, y, w, h;
    char color[COLOR_CAPACITY];
} shape;

struct folio_document {
    size_t count;
    shape *items;
};


/* Semantic diff and merge (shapes_diff.c, shapes_merge.c): shapes are matched between versions by equality, then
 * by kind and the fields left alike; the rest were added or removed. */
extern const folio_semantic_diff_v1 shapes_semantic_diff __attribute__((visibility("hidden")));
extern const folio_semantic_merge_v1 shapes_semantic_merge __attribute__((visibility("hidden")));
/* Items (shapes_items.c): a shape's key is its number; shapes are matched between versions by shapes_match. */
extern const folio_items_v1 shapes_items __attribute__((visibility("hidden")));
/* Sets old_to_new[i] to the index of old shape i in `new`, or -1 when it was removed. Returns 0 when out of memory. */
int shapes_match(const folio_document *old, const folio_document *new, long *old_to_new) __attribute__((visibility("hidden")));
/* The length of `text`'s first `most` bytes or less, never cutting a UTF-8 sequence (for quoting in messages). */
int utf8_prefix(const char *text, int most) __attribute__((visibility("hidden")));

/* A growable text buffer (shapes_text.c); `failed` is set when memory ran out. */
typedef struct text {
    char *data;
    size_t length, capacity;
    int failed;
} text;
void text_add(text *t, const char *bytes, size_t n) __attribute__((visibility("hidden")));
/* Adds the longest start of `line` that fits in `cells` terminal cells, never cutting a character (folio_text.h). */
void text_add_fit(text *t, const char *line, long long cells) __attribute__((visibility("hidden")));
/* Hands the text to `out` (or fails with out of memory) and frees it. */
folio_status text_finish(text *t, folio_buffer *out, folio_buffer *error) __attribute__((visibility("hidden")));

/* The view (shapes_render.c): a summary line, the numbered list, then the canvas. */
folio_status shapes_render(const folio_editor *editor, const folio_document *doc, uint32_t width, uint32_t height,
                           const folio_selection *selection, folio_buffer *out, folio_buffer *error) __attribute__((visibility("hidden")));
/* The name of a shape's kind, "rect" or "ellipse". */
const char *kind_name(int kind) __attribute__((visibility("hidden")));

/* A cursor over JSON bytes; the first error message is kept. */
typedef struct json_reader {
    const uint8_t *bytes;
    size_t size;
    size_t pos;
    char error[160];
} json_reader;

/* Each returns 1 on success, 0 on failure (with r->error set). */
int json_expect(json_reader *r, uint8_t c) __attribute__((visibility("hidden")));
int json_try(json_reader *r, uint8_t c) __attribute__((visibility("hidden"))); /* consumes c if it is next */
int json_string(json_reader *r, char *out, size_t capacity, size_t *out_length) __attribute__((visibility("hidden")));
int json_integer(json_reader *r, long long minimum, long long maximum, long long *out) __attribute__((visibility("hidden")));
int json_skip_value(json_reader *r) __attribute__((visibility("hidden")));
int json_at_end(json_reader *r) __attribute__((visibility("hidden")));

#endif
