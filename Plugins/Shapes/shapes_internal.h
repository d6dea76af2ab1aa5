#ifndef FOLIO_SHAPES_INTERNAL_H
#define FOLIO_SHAPES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "shapes.h"

#define COLOR_CAPACITY 32
/* An id: 1 to 32 ASCII letters, digits, '-' or '_' (ours are 12 lowercase hex digits). */
#define ID_CAPACITY 33

enum { KIND_RECT = 0, KIND_ELLIPSE = 1 };

/* A field this plugin does not know (written by a newer one), kept as the JSON text it was written as: the key as
 * quoted in the document and its value, byte for byte. `name` is the key decoded, for comparing. */
typedef struct field {
    char *name;
    char *key;
    size_t key_length;
    char *value;
    size_t value_length;
} field;

/* Fields a shape or the drawing did not know, in the order they were written; owned. */
typedef struct fields {
    size_t count;
    field *items;
} fields;

typedef struct shape {
    char id[ID_CAPACITY];
    int id_derived; /* 1: the document gave no id (an older format), so it was derived from the content (shapes_ids.c) */
    int kind;
    long long x, y, w, h;
    char color[COLOR_CAPACITY];
    fields extra;
} shape;

struct folio_document {
    size_t count;
    shape *items;
    fields extra; /* top-level fields other than "shapes" */
};

/* Documents and shapes (shapes.c). A shape owns its unknown fields: copy with shape_copy, free with shape_clear. */
folio_document *document_new(size_t capacity) __attribute__((visibility("hidden")));
void document_free(folio_document *doc) __attribute__((visibility("hidden")));
int fields_copy(fields *to, const fields *from) __attribute__((visibility("hidden"))); /* 0: out of memory (`to` empty) */
void fields_clear(fields *f) __attribute__((visibility("hidden")));
/* The value of field `name`, or NULL. */
const field *fields_find(const fields *f, const char *name) __attribute__((visibility("hidden")));
int shape_copy(shape *to, const shape *from) __attribute__((visibility("hidden"))); /* 0: out of memory */
void shape_clear(shape *s) __attribute__((visibility("hidden")));

/* Ids (shapes_ids.c). */
/* Gives every shape the document left without an id (or whose id an earlier shape already has) one derived from its
 * content and its occurrence among shapes with that content, so the same bytes get the same ids everywhere. */
int shapes_assign_ids(folio_document *doc) __attribute__((visibility("hidden"))); /* 0: out of memory */
/* A fresh random id (getrandom(2)) no shape of `doc` has. 0 when there is no randomness to be had. */
int shapes_fresh_id(const folio_document *doc, char out[ID_CAPACITY]) __attribute__((visibility("hidden")));
/* Whether `id` is 1 to 32 letters, digits, '-' or '_'. */
int shapes_valid_id(const char *id) __attribute__((visibility("hidden")));
/* Finding shapes by id: an open-addressing table of indexes into `items`. */
typedef struct id_index {
    const shape *items;
    size_t capacity; /* a power of two, at least twice the count */
    long *slots;     /* -1: empty */
} id_index;
int id_index_build(id_index *index, const shape *items, size_t count) __attribute__((visibility("hidden"))); /* 0: out of memory */
/* An empty index with room for `count` shapes of `items`; id_index_add adds shape j (0 when its id is there already). */
int id_index_init(id_index *index, const shape *items, size_t count) __attribute__((visibility("hidden")));
int id_index_add(id_index *index, size_t j) __attribute__((visibility("hidden")));
long id_index_find(const id_index *index, const char *id) __attribute__((visibility("hidden")));           /* -1: none */
void id_index_free(id_index *index) __attribute__((visibility("hidden")));
/* 64-bit FNV-1a. */
uint64_t shapes_hash(uint64_t hash, const void *bytes, size_t n) __attribute__((visibility("hidden")));
#define SHAPES_HASH_START 0xcbf29ce484222325ULL


/* Semantic diff and merge (shapes_diff.c, shapes_merge.c): shapes are matched between versions by id; shapes whose
 * ids were both derived (documents written without ids) and left unmatched are then matched as before ids: by
 * equality, then by kind and the fields left alike. The rest were added or removed. */
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
/* Skips one value and gives where its text starts (after any spaces) and ends. */
int json_raw_value(json_reader *r, size_t *start, size_t *end) __attribute__((visibility("hidden")));
int json_at_end(json_reader *r) __attribute__((visibility("hidden")));

#endif
