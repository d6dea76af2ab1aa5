#ifndef FOLIO_SHAPES_INTERNAL_H
#define FOLIO_SHAPES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

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
