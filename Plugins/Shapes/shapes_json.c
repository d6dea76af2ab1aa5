/* A small, careful JSON reader for the Shapes document and for argument arrays.
 * Inputs are byte ranges (not NUL-terminated); every read is bounds-checked; nesting is limited. */
#include "shapes_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

static void skip_space(json_reader *r) {
    while (r->pos < r->size) {
        uint8_t c = r->bytes[r->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') r->pos++;
        else break;
    }
}

static int fail(json_reader *r, const char *message) {
    if (r->error[0] == 0) snprintf(r->error, sizeof r->error, "%s at byte %zu", message, r->pos);
    return 0;
}

static int peek(json_reader *r, uint8_t *c) {
    skip_space(r);
    if (r->pos >= r->size) return 0;
    *c = r->bytes[r->pos];
    return 1;
}

int json_expect(json_reader *r, uint8_t c) {
    uint8_t got;
    if (!peek(r, &got) || got != c) {
        char message[40];
        snprintf(message, sizeof message, "expected '%c'", c);
        return fail(r, message);
    }
    r->pos++;
    return 1;
}

int json_try(json_reader *r, uint8_t c) {
    uint8_t got;
    if (peek(r, &got) && got == c) { r->pos++; return 1; }
    return 0;
}

static int hex4(json_reader *r, uint32_t *out) {
    if (r->size - r->pos < 4) return fail(r, "short \\u escape");
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = r->bytes[r->pos++];
        value <<= 4;
        if (c >= '0' && c <= '9') value |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') value |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') value |= (uint32_t)(c - 'A' + 10);
        else return fail(r, "bad \\u escape");
    }
    *out = value;
    return 1;
}

static int put(char *out, size_t capacity, size_t *length, uint8_t c) {
    if (out == NULL) { (*length)++; return 1; } /* skipping: count only */
    if (*length + 1 >= capacity) return 0;
    out[(*length)++] = (char)c;
    return 1;
}

int json_string(json_reader *r, char *out, size_t capacity, size_t *out_length) {
    size_t length = 0;
    if (out != NULL && capacity == 0) return fail(r, "no room for a string");
    if (!json_expect(r, '"')) return 0;
    while (r->pos < r->size) {
        uint8_t c = r->bytes[r->pos++];
        if (c == '"') {
            if (out != NULL) out[length] = 0;
            if (out_length) *out_length = length;
            return 1;
        }
        if (c < 0x20) return fail(r, "control character in a string");
        if (c == '\\') {
            if (r->pos >= r->size) break;
            uint8_t e = r->bytes[r->pos++];
            uint8_t plain = 0;
            switch (e) {
            case '"': plain = '"'; break;
            case '\\': plain = '\\'; break;
            case '/': plain = '/'; break;
            case 'b': plain = '\b'; break;
            case 'f': plain = '\f'; break;
            case 'n': plain = '\n'; break;
            case 'r': plain = '\r'; break;
            case 't': plain = '\t'; break;
            case 'u': {
                uint32_t cp;
                if (!hex4(r, &cp)) return 0;
                if (cp >= 0xD800 && cp < 0xDC00) {
                    uint32_t low;
                    if (r->size - r->pos >= 6 && r->bytes[r->pos] == '\\' && r->bytes[r->pos + 1] == 'u') {
                        r->pos += 2;
                        if (!hex4(r, &low)) return 0;
                        if (low < 0xDC00 || low > 0xDFFF) return fail(r, "bad surrogate pair");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    } else {
                        return fail(r, "lone surrogate");
                    }
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return fail(r, "lone surrogate");
                }
                uint8_t bytes[4];
                int n;
                if (cp < 0x80) { bytes[0] = (uint8_t)cp; n = 1; }
                else if (cp < 0x800) { bytes[0] = (uint8_t)(0xC0 | (cp >> 6)); bytes[1] = (uint8_t)(0x80 | (cp & 0x3F)); n = 2; }
                else if (cp < 0x10000) { bytes[0] = (uint8_t)(0xE0 | (cp >> 12)); bytes[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)); bytes[2] = (uint8_t)(0x80 | (cp & 0x3F)); n = 3; }
                else { bytes[0] = (uint8_t)(0xF0 | (cp >> 18)); bytes[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F)); bytes[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)); bytes[3] = (uint8_t)(0x80 | (cp & 0x3F)); n = 4; }
                if (cp == 0) return fail(r, "NUL in a string");
                for (int i = 0; i < n; i++) if (!put(out, capacity, &length, bytes[i])) return fail(r, "string too long");
                continue;
            }
            default: return fail(r, "bad escape");
            }
            if (!put(out, capacity, &length, plain)) return fail(r, "string too long");
            continue;
        }
        if (!put(out, capacity, &length, c)) return fail(r, "string too long");
    }
    return fail(r, "unterminated string");
}

int json_integer(json_reader *r, long long minimum, long long maximum, long long *out) {
    skip_space(r);
    size_t start = r->pos;
    int negative = 0;
    if (r->pos < r->size && r->bytes[r->pos] == '-') { negative = 1; r->pos++; }
    long long value = 0;
    size_t digits = 0;
    while (r->pos < r->size && r->bytes[r->pos] >= '0' && r->bytes[r->pos] <= '9') {
        if (value > 1000000000000LL) { r->pos = start; return fail(r, "number too large"); }
        value = value * 10 + (r->bytes[r->pos] - '0');
        r->pos++;
        digits++;
    }
    if (digits == 0) { r->pos = start; return fail(r, "expected a whole number"); }
    /* Accept an exact ".0" fraction (some writers emit 3.0); refuse anything else. */
    if (r->pos < r->size && (r->bytes[r->pos] == '.' || r->bytes[r->pos] == 'e' || r->bytes[r->pos] == 'E')) {
        if (r->bytes[r->pos] != '.') { r->pos = start; return fail(r, "expected a whole number"); }
        r->pos++;
        size_t fraction = 0;
        while (r->pos < r->size && r->bytes[r->pos] == '0') { r->pos++; fraction++; }
        if (fraction == 0 || (r->pos < r->size && ((r->bytes[r->pos] >= '1' && r->bytes[r->pos] <= '9') || r->bytes[r->pos] == 'e' || r->bytes[r->pos] == 'E'))) {
            r->pos = start;
            return fail(r, "expected a whole number");
        }
    }
    if (negative) value = -value;
    if (value < minimum || value > maximum) { r->pos = start; return fail(r, "number out of range"); }
    *out = value;
    return 1;
}

static int skip_value_at(json_reader *r, int depth) {
    uint8_t c;
    if (depth > MAX_DEPTH) return fail(r, "nested too deeply");
    if (!peek(r, &c)) return fail(r, "unexpected end");
    if (c == '"') return json_string(r, NULL, 0, NULL);
    if (c == '{') {
        r->pos++;
        if (json_try(r, '}')) return 1;
        do { /* a key of any length is only counted (kept verbatim by the caller when it keeps the value) */
            if (!json_string(r, NULL, 0, NULL) || !json_expect(r, ':') || !skip_value_at(r, depth + 1)) return 0;
        } while (json_try(r, ','));
        return json_expect(r, '}');
    }
    if (c == '[') {
        r->pos++;
        if (json_try(r, ']')) return 1;
        do {
            if (!skip_value_at(r, depth + 1)) return 0;
        } while (json_try(r, ','));
        return json_expect(r, ']');
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if (r->size - r->pos >= n && memcmp(r->bytes + r->pos, words[i], n) == 0) { r->pos += n; return 1; }
    }
    size_t start = r->pos;
    while (r->pos < r->size && strchr("+-0123456789.eE", r->bytes[r->pos]) != NULL && r->bytes[r->pos] != 0) r->pos++;
    if (r->pos == start) return fail(r, "unexpected character");
    return 1;
}

int json_skip_value(json_reader *r) { return skip_value_at(r, 1); }

int json_raw_value(json_reader *r, size_t *start, size_t *end) {
    skip_space(r);
    *start = r->pos;
    if (!skip_value_at(r, 2)) return 0; /* inside an object: one level down */
    *end = r->pos;
    return 1;
}

int json_at_end(json_reader *r) {
    skip_space(r);
    return r->pos == r->size ? 1 : fail(r, "unexpected text after the JSON value");
}
