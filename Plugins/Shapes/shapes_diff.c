/* Shapes: semantic diff. Versions are matched by id (shapes_match). Shapes left over whose ids were derived on both
 * sides (documents written before ids, where nothing written says which shape is which) are matched by content as
 * before: equal shapes first (common prefix and suffix, then a longest common subsequence when the rest is small),
 * then, between those anchors, shapes of the same kind that kept at least one of position, size and colour are the
 * same shape changed. Everything is bounded: past MATCH_CELLS the middle is matched position by position. */
#include "shapes_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATCH_CELLS 4000000u

static const char *shape_kind(int kind) { return kind == KIND_ELLIPSE ? "ellipse" : "rect"; }

static int same_shape(const shape *a, const shape *b) {
    return a->kind == b->kind && a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h && strcmp(a->color, b->color) == 0;
}

/* How many of position, size and colour two shapes of the same kind share (-1 for different kinds). */
static int likeness(const shape *a, const shape *b) {
    if (a->kind != b->kind) return -1;
    return (a->x == b->x && a->y == b->y) + (a->w == b->w && a->h == b->h) + (strcmp(a->color, b->color) == 0);
}

/* Pairs the unmatched shapes of old[o0, o1) with new[n0, n1) in order, each new one with the most alike old one. */
static void pair_gap(const shape *old, size_t o0, size_t o1, const shape *new, size_t n0, size_t n1, long *old_to_new) {
    size_t start = o0;
    for (size_t j = n0; j < n1 && start < o1; j++) {
        long best = -1;
        int best_score = 0;
        size_t limit = (o1 - start) * (n1 - n0) > MATCH_CELLS ? start + 1 : o1; /* large gaps: position by position */
        for (size_t i = start; i < limit; i++) {
            int score = likeness(&old[i], &new[j]);
            if (score > best_score) { best_score = score; best = (long)i; }
        }
        if (best >= 0) { old_to_new[best] = (long)j; start = (size_t)best + 1; }
    }
}

/* Longest common subsequence of equal shapes in old[p, p+n) and new[p, p+m); fills old_to_new. 0 on out of memory. */
static int lcs(const shape *old, const shape *new, size_t p, size_t n, size_t m, long *old_to_new) {
    unsigned *table = calloc((n + 1) * (m + 1), sizeof *table);
    if (table == NULL) return 0;
#define CELL(i, j) table[(i) * (m + 1) + (j)]
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            CELL(i, j) = same_shape(&old[p + i], &new[p + j]) ? CELL(i + 1, j + 1) + 1
                         : (CELL(i + 1, j) > CELL(i, j + 1) ? CELL(i + 1, j) : CELL(i, j + 1));
    size_t i = 0, j = 0;
    while (i < n && j < m) {
        if (same_shape(&old[p + i], &new[p + j])) { old_to_new[p + i] = (long)(p + j); i++; j++; }
        else if (CELL(i + 1, j) >= CELL(i, j + 1)) i++;
        else j++;
    }
#undef CELL
    free(table);
    return 1;
}

static int content_match(const folio_document *old, const folio_document *new, long *old_to_new) {
    size_t n = old->count, m = new->count, prefix = 0, suffix = 0;
    for (size_t i = 0; i < n; i++) old_to_new[i] = -1;
    while (prefix < n && prefix < m && same_shape(&old->items[prefix], &new->items[prefix])) { old_to_new[prefix] = (long)prefix; prefix++; }
    while (suffix < n - prefix && suffix < m - prefix && same_shape(&old->items[n - 1 - suffix], &new->items[m - 1 - suffix])) {
        old_to_new[n - 1 - suffix] = (long)(m - 1 - suffix);
        suffix++;
    }
    size_t mn = n - prefix - suffix, mm = m - prefix - suffix;
    if (mn > 0 && mm > 0 && (mn + 1) <= MATCH_CELLS / (mm + 1)) {
        if (!lcs(old->items, new->items, prefix, mn, mm, old_to_new)) return 0;
    }
    /* Between consecutive anchors, pair what is left. */
    size_t o = prefix, j = prefix;
    for (size_t i = prefix; i <= n - suffix; i++) {
        if (i < n - suffix && old_to_new[i] < 0) continue;
        size_t next_new = i < n - suffix ? (size_t)old_to_new[i] : m - suffix;
        pair_gap(old->items, o, i, new->items, j, next_new, old_to_new);
        o = i + 1;
        j = next_new + 1;
    }
    return 1;
}

int shapes_match(const folio_document *old, const folio_document *new, long *old_to_new) {
    for (size_t i = 0; i < old->count; i++) old_to_new[i] = -1;
    id_index index = {0};
    char *used = calloc(new->count ? new->count : 1, 1);
    int ok = used != NULL && id_index_build(&index, new->items, new->count);
    size_t left_old = 0, left_new = 0;
    for (size_t i = 0; ok && i < old->count; i++) {
        long j = id_index_find(&index, old->items[i].id);
        if (j >= 0 && !used[j]) { old_to_new[i] = j; used[j] = 1; }
        else left_old += old->items[i].id_derived;
    }
    for (size_t j = 0; ok && j < new->count; j++) left_new += !used[j] && new->items[j].id_derived;
    id_index_free(&index);
    if (ok && left_old > 0 && left_new > 0) {
        /* The shapes without written ids on both sides, matched by content among themselves (shallow copies, read only). */
        folio_document a = {0, malloc(left_old * sizeof(shape)), {0}}, b = {0, malloc(left_new * sizeof(shape)), {0}};
        size_t *from_a = malloc(left_old * sizeof *from_a), *from_b = malloc(left_new * sizeof *from_b);
        long *map = malloc(left_old * sizeof *map);
        ok = a.items != NULL && b.items != NULL && from_a != NULL && from_b != NULL && map != NULL;
        for (size_t i = 0; ok && i < old->count; i++)
            if (old_to_new[i] < 0 && old->items[i].id_derived) { from_a[a.count] = i; a.items[a.count++] = old->items[i]; }
        for (size_t j = 0; ok && j < new->count; j++)
            if (!used[j] && new->items[j].id_derived) { from_b[b.count] = j; b.items[b.count++] = new->items[j]; }
        if (ok) ok = content_match(&a, &b, map);
        for (size_t k = 0; ok && k < a.count; k++) if (map[k] >= 0) old_to_new[from_a[k]] = (long)from_b[map[k]];
        free(a.items); free(b.items); free(from_a); free(from_b); free(map);
    }
    free(used);
    return ok;
}

/* ---- Describing ------------------------------------------------------------------------------------------- */

typedef struct lines {
    char *data;
    size_t length, capacity;
    int failed;
} lines;

static void add_line(lines *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void add_line(lines *t, const char *format, ...) {
    char line[256];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (n < 0 || t->failed) return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (t->length + len + 2 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        while (capacity < t->length + len + 2) capacity *= 2;
        char *grown = realloc(t->data, capacity);
        if (grown == NULL) { t->failed = 1; return; }
        t->data = grown;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, line, len);
    t->length += len;
    t->data[t->length++] = '\n';
    t->data[t->length] = 0;
}

static void describe_change(lines *t, const shape *a, const shape *b, size_t number) {
    const char *kind = shape_kind(b->kind);
    if (a->x != b->x || a->y != b->y) add_line(t, "moved %s %zu from (%lld, %lld) to (%lld, %lld)", kind, number, a->x, a->y, b->x, b->y);
    if (a->w != b->w || a->h != b->h) add_line(t, "resized %s %zu from %lld x %lld to %lld x %lld", kind, number, a->w, a->h, b->w, b->h);
    if (strcmp(a->color, b->color) != 0) add_line(t, "recoloured %s %zu from %s to %s", kind, number, a->color, b->color);
    /* Fields a newer plugin wrote: named, not shown (their values are that plugin's to describe). */
    const fields *sides[2] = {&a->extra, &b->extra};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k]->count; i++) {
            const field *f = &sides[k]->items[i], *other = fields_find(sides[1 - k], f->name);
            if (k == 1 && other != NULL) continue; /* named from the old side already */
            if (other != NULL && other->value_length == f->value_length && memcmp(other->value, f->value, f->value_length) == 0) continue;
            char name[48];
            int n = utf8_prefix(f->name, 40);
            for (int c = 0; c < n; c++) name[c] = (unsigned char)f->name[c] < 0x20 || f->name[c] == 0x7f ? '?' : f->name[c];
            name[n] = 0;
            add_line(t, "%s field '%s' of %s %zu", other == NULL ? (k == 0 ? "removed" : "added") : "changed", name, kind, number);
        }
}

/* Fills `t` with one line per change from `old` to `new`. 0 when out of memory. */
static int describe(const folio_document *old, const folio_document *new, lines *t) {
    long *old_to_new = calloc(old->count ? old->count : 1, sizeof *old_to_new);
    char *matched = calloc(new->count ? new->count : 1, 1);
    if (old_to_new == NULL || matched == NULL || !shapes_match(old, new, old_to_new)) { free(old_to_new); free(matched); return 0; }
    for (size_t i = 0; i < old->count; i++) {
        const shape *s = &old->items[i];
        if (old_to_new[i] < 0) add_line(t, "removed %s %zu at (%lld, %lld), %lld x %lld, %s", shape_kind(s->kind), i + 1, s->x, s->y, s->w, s->h, s->color);
        else matched[old_to_new[i]] = 1;
    }
    for (size_t j = 0; j < new->count; j++) {
        const shape *s = &new->items[j];
        if (!matched[j]) add_line(t, "added %s %zu at (%lld, %lld), %lld x %lld, %s", shape_kind(s->kind), j + 1, s->x, s->y, s->w, s->h, s->color);
    }
    for (size_t i = 0; i < old->count; i++)
        if (old_to_new[i] >= 0) describe_change(t, &old->items[i], &new->items[old_to_new[i]], (size_t)old_to_new[i] + 1);
    free(old_to_new);
    free(matched);
    return !t->failed;
}

static folio_status shapes_diff(const folio_editor *editor, const uint8_t *old_bytes, size_t old_size, const uint8_t *new_bytes,
                                size_t new_size, folio_buffer *out_text, folio_buffer *out_error) {
    if (editor == NULL || editor->open == NULL || editor->release == NULL || (old_bytes == NULL && old_size > 0) || (new_bytes == NULL && new_size > 0))
        return folio_fail(out_error, FOLIO_STATUS_INTERNAL, "bad arguments to semantic diff");
    folio_document *old = NULL, *new = NULL;
    folio_status status = editor->open(editor, old_bytes, old_size, &old, out_error);
    if (status != FOLIO_STATUS_OK) return status;
    status = editor->open(editor, new_bytes, new_size, &new, out_error);
    if (status != FOLIO_STATUS_OK) { editor->release(editor, old); return status; }
    lines t = {0};
    if (!describe(old, new, &t)) status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    else status = folio_buffer_set(out_text, t.data ? t.data : "", t.length);
    if (status == FOLIO_STATUS_OUT_OF_MEMORY) folio_fail(out_error, status, "out of memory");
    free(t.data);
    editor->release(editor, old);
    editor->release(editor, new);
    return status;
}

const folio_semantic_diff_v1 shapes_semantic_diff = {sizeof(folio_semantic_diff_v1), 0, shapes_diff};
