/* folio_text.h: text helpers for Folio editor plugins written in C (header-only, like folio_plugin.h).
 *
 *   UTF-8:   folio_utf8_decode, folio_utf8_valid
 *   Width:   folio_char_width, folio_text_cluster, folio_text_width, folio_text_fit (terminal cells, by the same rules
 *            as Folio's own screens and its clipping of plugin lines: utf8proc's widths and grapheme clusters)
 *   Args:    folio_args_parse, folio_args_free (the JSON array of strings `apply` receives)
 *   Lines:   folio_lines_* (a view built line by line, each line cut by cells, never inside a character)
 *   Ids:     folio_id_fresh, folio_id_derived, folio_id_valid (item ids exactly as Folio's Swift SDK makes them:
 *            ItemIdentity.fresh, .derived and .isValid, so that C and Swift plugins of one format agree)
 *
 * Build: cc $(pkg-config --cflags --libs folio-plugin) ... (needs libutf8proc-dev: the widths come from utf8proc).
 * Every function is static inline, so nothing is linked from Folio and a plugin stays one self-contained .so. */
#ifndef FOLIO_TEXT_H
#define FOLIO_TEXT_H

#include <folio_plugin.h>
#include <utf8proc.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* ---- UTF-8 ------------------------------------------------------------------------------------------------- */

/* The code point at the start of `bytes` (`size` > 0), its encoded length in *length. An invalid or cut sequence
 * (a stray continuation byte, an overlong form, a surrogate, a value past U+10FFFF, a sequence cut by the end) is
 * -1 with *length 1: skip one byte and go on. */
static inline int32_t folio_utf8_decode(const char *bytes, size_t size, size_t *length) {
    const unsigned char *s = (const unsigned char *)bytes;
    size_t extra, k;
    int32_t code;
    *length = 1;
    if (size == 0) return -1;
    if (s[0] < 0x80) return s[0];
    extra = (s[0] & 0xE0) == 0xC0 ? 1 : (s[0] & 0xF0) == 0xE0 ? 2 : (s[0] & 0xF8) == 0xF0 ? 3 : 0;
    if (extra == 0 || extra >= size) return -1;
    code = s[0] & (0x7F >> (extra + 1));
    for (k = 1; k <= extra; k++) {
        if ((s[k] & 0xC0) != 0x80) return -1;
        code = (code << 6) | (s[k] & 0x3F);
    }
    if ((extra == 1 && code < 0x80) || (extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000)) return -1;
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return -1;
    *length = extra + 1;
    return code;
}

/* Whether `bytes` is well-formed UTF-8 throughout (Folio shows views on a terminal: check a document when opening). */
static inline int folio_utf8_valid(const char *bytes, size_t size) {
    size_t at = 0, length;
    while (at < size) {
        if (folio_utf8_decode(bytes + at, size - at, &length) < 0) return 0;
        at += length;
    }
    return 1;
}

/* ---- Display width ----------------------------------------------------------------------------------------- */

/* The cells one code point takes: 0 for controls and combining marks, 2 for wide (CJK, most emoji), else 1. */
static inline int folio_char_width(int32_t code) {
    int width;
    if (code < 0x20 || (code >= 0x7F && code < 0xA0)) return 0;
    width = utf8proc_charwidth(code);
    return width < 0 ? 0 : width;
}

/* The next grapheme cluster of `text` (`size` > 0): its byte length, its width in *width. An invalid byte is a
 * cluster of its own, one byte, one cell (it is drawn as a replacement). Like Folio: an emoji presentation
 * selector (U+FE0F) makes a narrow cluster wide, a flag (two regional indicators) is two cells, and a cluster that
 * starts with a combining mark takes the width of what follows it. */
static inline size_t folio_text_cluster(const char *text, size_t size, int *width) {
    size_t at, length;
    int32_t code = folio_utf8_decode(text, size, &length), previous = code;
    int32_t state = 0;
    int rest = 0, flags = (code >= 0x1F1E6 && code <= 0x1F1FF);
    *width = code < 0 ? 1 : folio_char_width(code);
    if (code < 0) return 1;
    for (at = length; at < size; at += length) {
        int32_t next = folio_utf8_decode(text + at, size - at, &length);
        if (next < 0 || utf8proc_grapheme_break_stateful(previous, next, &state)) break;
        if (next == 0xFE0F && *width == 1) *width = 2;
        if (next >= 0x1F1E6 && next <= 0x1F1FF) flags++;
        if (folio_char_width(next) > rest) rest = folio_char_width(next);
        previous = next;
    }
    if (flags >= 2) *width = 2;
    if (*width == 0) *width = rest;
    return at;
}

/* The cells `text` takes on a terminal. */
static inline int folio_text_width(const char *text, size_t size) {
    size_t at = 0;
    int total = 0, width;
    while (at < size) {
        at += folio_text_cluster(text + at, size - at, &width);
        total += width;
    }
    return total;
}

/* The byte length of the longest start of `text` made of whole clusters that fits in `cells`; its width in *used
 * (may be NULL). Never cuts inside a character or a cluster: a wide character with one cell left stays out. */
static inline size_t folio_text_fit(const char *text, size_t size, int cells, int *used) {
    size_t at = 0;
    int total = 0, width;
    while (at < size) {
        size_t length = folio_text_cluster(text + at, size - at, &width);
        if (total + width > cells) break;
        total += width;
        at += length;
    }
    if (used != NULL) *used = total;
    return at;
}

/* ---- Arguments: the JSON array of strings apply receives ---------------------------------------------------- */

typedef struct folio_args {
    char **values; /* `count` NUL-terminated UTF-8 strings */
    size_t count;
} folio_args;

static inline void folio_args_free(folio_args *args) {
    size_t i;
    for (i = 0; i < args->count; i++) free(args->values[i]);
    free(args->values);
    args->values = NULL;
    args->count = 0;
}

static inline const char *folio_json_space_(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static inline int folio_json_hex4_(const char *p, int32_t *out) {
    int32_t value = 0;
    int i;
    for (i = 0; i < 4; i++) {
        char c = p[i];
        value <<= 4;
        if (c >= '0' && c <= '9') value |= c - '0';
        else if (c >= 'a' && c <= 'f') value |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') value |= c - 'A' + 10;
        else return 0;
    }
    *out = value;
    return 1;
}

/* One JSON string at `p` (after its opening quote) into a new buffer; the position after its closing quote, or NULL
 * when malformed (a lone surrogate, \u0000, a raw control character, invalid UTF-8) or out of memory. */
static inline const char *folio_json_string_(const char *p, char **out) {
    const char *end = p + strlen(p);
    char *text = malloc((size_t)(end - p) + 1);
    size_t size = 0, length;
    int32_t code, low;
    if (text == NULL) return NULL;
    while (*p != '"') {
        if (*p == 0 || (unsigned char)*p < 0x20) goto fail;
        if (*p != '\\') {
            if (folio_utf8_decode(p, (size_t)(end - p), &length) < 0) goto fail;
            memcpy(text + size, p, length);
            size += length;
            p += length;
            continue;
        }
        switch (p[1]) {
        case '"': case '\\': case '/': text[size++] = p[1]; p += 2; continue;
        case 'b': text[size++] = '\b'; p += 2; continue;
        case 'f': text[size++] = '\f'; p += 2; continue;
        case 'n': text[size++] = '\n'; p += 2; continue;
        case 'r': text[size++] = '\r'; p += 2; continue;
        case 't': text[size++] = '\t'; p += 2; continue;
        case 'u': break;
        default: goto fail;
        }
        if (!folio_json_hex4_(p + 2, &code)) goto fail;
        p += 6;
        if (code >= 0xD800 && code < 0xDC00) { /* a surrogate pair; a lone half is refused */
            if (p[0] != '\\' || p[1] != 'u' || !folio_json_hex4_(p + 2, &low) || low < 0xDC00 || low > 0xDFFF) goto fail;
            p += 6;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if ((code >= 0xDC00 && code <= 0xDFFF) || code == 0) {
            goto fail;
        }
        size += (size_t)utf8proc_encode_char(code, (utf8proc_uint8_t *)text + size);
    }
    text[size] = 0;
    *out = text;
    return p + 1;
fail:
    free(text);
    return NULL;
}

/* Parses `json`, a JSON array of strings, into `args` (free it with folio_args_free). 1 when it is one, else 0
 * with `args` empty. */
static inline int folio_args_parse(const char *json, folio_args *args) {
    const char *p = folio_json_space_(json);
    args->values = NULL;
    args->count = 0;
    if (*p++ != '[') return 0;
    p = folio_json_space_(p);
    if (*p == ']') return *folio_json_space_(p + 1) == 0;
    for (;;) {
        char *value = NULL, **grown;
        if (*p++ != '"' || (p = folio_json_string_(p, &value)) == NULL) break;
        if ((grown = realloc(args->values, (args->count + 1) * sizeof *grown)) == NULL) { free(value); break; }
        args->values = grown;
        args->values[args->count++] = value;
        p = folio_json_space_(p);
        if (*p == ']') {
            if (*folio_json_space_(p + 1) == 0) return 1;
            break;
        }
        if (*p++ != ',') break;
        p = folio_json_space_(p);
    }
    folio_args_free(args);
    return 0;
}

/* ---- Lines: a view built line by line, each cut at `width` cells ------------------------------------------- */

typedef struct folio_lines {
    char *data;     /* the text so far (NUL-terminated), lines separated by '\n' */
    size_t length, capacity;
    int width;      /* the cells a line may take */
    int used;       /* the cells the current line takes */
    int failed;     /* out of memory: every later call does nothing, folio_lines_finish reports it */
} folio_lines;

static inline void folio_lines_init(folio_lines *lines, int width) {
    memset(lines, 0, sizeof *lines);
    lines->width = width < 0 ? 0 : width;
}

static inline void folio_lines_put_(folio_lines *lines, const char *bytes, size_t size) {
    if (lines->failed) return;
    if (lines->length + size + 1 > lines->capacity) {
        size_t capacity = lines->capacity ? lines->capacity : 256;
        char *grown;
        while (capacity < lines->length + size + 1) capacity *= 2;
        if ((grown = realloc(lines->data, capacity)) == NULL) { lines->failed = 1; return; }
        lines->data = grown;
        lines->capacity = capacity;
    }
    memcpy(lines->data + lines->length, bytes, size);
    lines->length += size;
    lines->data[lines->length] = 0;
}

/* Appends `text` to the current line, as much as fits in what is left of its width, in whole clusters. Invalid
 * bytes and control characters (a newline too: use folio_lines_break) are written as U+FFFD. Returns 1 when all
 * of it fitted, 0 when it was cut. */
static inline int folio_lines_add(folio_lines *lines, const char *text, size_t size) {
    size_t at = 0;
    int width;
    while (at < size) {
        size_t length = folio_text_cluster(text + at, size - at, &width), step;
        int32_t code = folio_utf8_decode(text + at, size - at, &step);
        int replace = code < 0x20 || (code >= 0x7F && code < 0xA0);
        if (replace) { width = 1; length = step; }
        if (lines->used + width > lines->width) return 0;
        if (replace) folio_lines_put_(lines, "\xEF\xBF\xBD", 3);
        else folio_lines_put_(lines, text + at, length);
        lines->used += width;
        at += length;
    }
    return 1;
}

/* folio_lines_add of a NUL-terminated string. */
static inline int folio_lines_add_string(folio_lines *lines, const char *text) {
    return folio_lines_add(lines, text, strlen(text));
}

/* folio_lines_add of printf-style text (cut like any other). */
static inline int folio_lines_addf(folio_lines *lines, const char *format, ...) __attribute__((format(printf, 2, 3)));
static inline int folio_lines_addf(folio_lines *lines, const char *format, ...) {
    char small[256], *text = small;
    int size, fitted;
    va_list list;
    va_start(list, format);
    size = vsnprintf(small, sizeof small, format, list);
    va_end(list);
    if (size < 0) return 0;
    if ((size_t)size >= sizeof small) {
        if ((text = malloc((size_t)size + 1)) == NULL) { lines->failed = 1; return 0; }
        va_start(list, format);
        vsnprintf(text, (size_t)size + 1, format, list);
        va_end(list);
    }
    fitted = folio_lines_add(lines, text, (size_t)size);
    if (text != small) free(text);
    return fitted;
}

/* Ends the current line and starts the next. */
static inline void folio_lines_break(folio_lines *lines) {
    folio_lines_put_(lines, "\n", 1);
    lines->used = 0;
}

/* Sets `out` to the text and frees the builder: FOLIO_STATUS_OK, or FOLIO_STATUS_OUT_OF_MEMORY with `error` set. */
static inline folio_status folio_lines_finish(folio_lines *lines, folio_buffer *out, folio_buffer *error) {
    folio_status status = lines->failed ? FOLIO_STATUS_OUT_OF_MEMORY
                                        : folio_buffer_set(out, lines->data ? lines->data : "", lines->length);
    free(lines->data);
    memset(lines, 0, sizeof *lines);
    return status == FOLIO_STATUS_OK ? status : folio_fail(error, status, "out of memory");
}

/* ---- Item ids ---------------------------------------------------------------------------------------------- */

/* Ids Folio makes are FOLIO_ID_LENGTH characters of "abcdefghijkmnpqrstuvwxyz23456789" (60 bits, 5 a character,
 * lowest first); an id read from a document may be any 1-64 printable ASCII characters but space, '"' and '\\'. */
#define FOLIO_ID_LENGTH 12

static inline void folio_id_encode_(uint64_t bits, char out[FOLIO_ID_LENGTH + 1]) {
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
    for (int k = 0; k < FOLIO_ID_LENGTH; k++) {
        out[k] = alphabet[bits & 31];
        bits >>= 5;
    }
    out[FOLIO_ID_LENGTH] = '\0';
}

/* A new random id for an item a command adds, into `out` (NUL-terminated); -1 when the kernel gives no randomness
 * (then `out` is empty). */
static inline int folio_id_fresh(char out[FOLIO_ID_LENGTH + 1]) {
    uint64_t bits;
    size_t got = 0;
    out[0] = '\0';
    while (got < sizeof bits) {
        ssize_t n = getrandom((char *)&bits + got, sizeof bits - got, 0);
        if (n < 0) return -1;
        got += (size_t)n;
    }
    folio_id_encode_(bits, out);
    return 0;
}

static inline uint64_t folio_id_hash_(uint64_t hash, const char *bytes, size_t size) {
    for (size_t i = 0; i < size; i++) hash = (hash ^ (unsigned char)bytes[i]) * 0x100000001b3ULL;
    return (hash ^ 0x1F) * 0x100000001b3ULL;
}

/* The id of an item read from a document written without ids: a hash of its `count` fields (`fields[i]`,
 * `sizes[i]` bytes) and of `occurrence`, how many items with the same fields came before it. The same version gets
 * the same ids on every machine, so two clones that migrate independently agree. */
static inline void folio_id_derived(const char *const *fields, const size_t *sizes, size_t count, size_t occurrence,
                                    char out[FOLIO_ID_LENGTH + 1]) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    char number[24];
    int length = snprintf(number, sizeof number, "%zu", occurrence);
    for (size_t i = 0; i < count; i++) hash = folio_id_hash_(hash, fields[i], sizes[i]);
    hash = folio_id_hash_(hash, number, length > 0 ? (size_t)length : 0);
    folio_id_encode_(hash, out);
}

/* Whether `id` (`size` bytes) can be an id as read from a document. */
static inline int folio_id_valid(const char *id, size_t size) {
    if (size == 0 || size > 64) return 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)id[i];
        if (c <= 0x20 || c >= 0x7F || c == '"' || c == '\\') return 0;
    }
    return 1;
}

#endif /* FOLIO_TEXT_H */
