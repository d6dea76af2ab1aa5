/* Shapes: three-way semantic merge. Each side is matched against the base (shapes_match); a shape changed on one
 * side takes that change, position, size and colour merging separately; the same field changed differently, or a
 * shape removed on one side and changed on the other, is a conflict. Shapes added on either side follow the shape
 * they were added after. */
#include "shapes_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct conflicts {
    char text[4096];
    size_t length;
    size_t count;
} conflicts;

static void conflict(conflicts *c, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void conflict(conflicts *c, const char *format, ...) {
    c->count++;
    if (c->length + 2 >= sizeof c->text) return; /* the first conflicts are enough to say why */
    va_list args;
    va_start(args, format);
    int n = vsnprintf(c->text + c->length, sizeof c->text - c->length - 1, format, args);
    va_end(args);
    if (n < 0) return;
    c->length += (size_t)n < sizeof c->text - c->length - 1 ? (size_t)n : sizeof c->text - c->length - 2;
    c->text[c->length++] = '\n';
    c->text[c->length] = 0;
}

static int same(const shape *a, const shape *b) {
    return a->kind == b->kind && a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h && strcmp(a->color, b->color) == 0;
}

/* Merges one shape kept on both sides, field by field. */
static shape merge_shape(const shape *b, const shape *o, const shape *t, size_t number, conflicts *c) {
    shape m = *o;
    const char *kind = b->kind == KIND_ELLIPSE ? "ellipse" : "rect";
    int o_pos = o->x != b->x || o->y != b->y, t_pos = t->x != b->x || t->y != b->y;
    if (!o_pos) { m.x = t->x; m.y = t->y; }
    else if (t_pos && (t->x != o->x || t->y != o->y)) conflict(c, "%s %zu: moved to (%lld, %lld) by us, to (%lld, %lld) by them", kind, number, o->x, o->y, t->x, t->y);
    int o_size = o->w != b->w || o->h != b->h, t_size = t->w != b->w || t->h != b->h;
    if (!o_size) { m.w = t->w; m.h = t->h; }
    else if (t_size && (t->w != o->w || t->h != o->h)) conflict(c, "%s %zu: resized to %lld x %lld by us, to %lld x %lld by them", kind, number, o->w, o->h, t->w, t->h);
    int o_color = strcmp(o->color, b->color) != 0, t_color = strcmp(t->color, b->color) != 0;
    if (!o_color) memcpy(m.color, t->color, sizeof m.color);
    else if (t_color && strcmp(t->color, o->color) != 0) conflict(c, "%s %zu: recoloured %s by us, %s by them", kind, number, o->color, t->color);
    if (o->kind != b->kind || t->kind != b->kind) m.kind = o->kind != b->kind ? o->kind : t->kind;
    return m;
}

/* For each shape of `side`, the base shape it follows (the nearest earlier matched one), as base index + 1 (0: first). */
static void anchors(const folio_document *side, const long *base_to_side, size_t base_count, size_t *anchor_of) {
    long *side_to_base = malloc((side->count ? side->count : 1) * sizeof *side_to_base);
    size_t anchor = 0;
    if (side_to_base == NULL) return;
    for (size_t j = 0; j < side->count; j++) side_to_base[j] = -1;
    for (size_t i = 0; i < base_count; i++) if (base_to_side[i] >= 0) side_to_base[base_to_side[i]] = (long)i;
    for (size_t j = 0; j < side->count; j++) {
        if (side_to_base[j] >= 0) { anchor = (size_t)side_to_base[j] + 1; anchor_of[j] = (size_t)-1; }
        else anchor_of[j] = anchor;
    }
    free(side_to_base);
}

typedef struct merge_state {
    const folio_document *base, *ours, *theirs;
    long *bo, *bt;            /* base index → ours / theirs index, or -1 */
    size_t *ao, *at;          /* ours / theirs index → anchor (base index + 1), or (size_t)-1 when matched */
    folio_document *out;
    conflicts c;
} merge_state;

/* Appends the shapes each side added after base shape `anchor - 1` (ours first; one added identically by both once). */
static void add_inserted(merge_state *s, size_t anchor) {
    size_t first = s->out->count;
    for (size_t j = 0; j < s->ours->count; j++) if (s->ao[j] == anchor) s->out->items[s->out->count++] = s->ours->items[j];
    size_t ours_end = s->out->count;
    for (size_t j = 0; j < s->theirs->count; j++) {
        if (s->at[j] != anchor) continue;
        int duplicate = 0;
        for (size_t k = first; k < ours_end && !duplicate; k++) duplicate = same(&s->out->items[k], &s->theirs->items[j]);
        if (!duplicate) s->out->items[s->out->count++] = s->theirs->items[j];
    }
}

static void merge_all(merge_state *s) {
    add_inserted(s, 0);
    for (size_t i = 0; i < s->base->count; i++) {
        const shape *b = &s->base->items[i];
        const char *kind = b->kind == KIND_ELLIPSE ? "ellipse" : "rect";
        long o = s->bo[i], t = s->bt[i];
        if (o >= 0 && t >= 0) s->out->items[s->out->count++] = merge_shape(b, &s->ours->items[o], &s->theirs->items[t], i + 1, &s->c);
        else if (o >= 0 && !same(b, &s->ours->items[o])) conflict(&s->c, "%s %zu: changed by us, removed by them", kind, i + 1);
        else if (t >= 0 && !same(b, &s->theirs->items[t])) conflict(&s->c, "%s %zu: removed by us, changed by them", kind, i + 1);
        add_inserted(s, i + 1);
    }
}

static folio_status shapes_merge(const folio_editor *editor, const uint8_t *base_bytes, size_t base_size, const uint8_t *ours_bytes,
                                 size_t ours_size, const uint8_t *theirs_bytes, size_t theirs_size, folio_buffer *out_merged,
                                 folio_buffer *out_conflicts, folio_buffer *out_error) {
    if (editor == NULL || editor->open == NULL || editor->release == NULL || editor->serialize == NULL || (base_bytes == NULL && base_size > 0) ||
        (ours_bytes == NULL && ours_size > 0) || (theirs_bytes == NULL && theirs_size > 0))
        return folio_fail(out_error, FOLIO_STATUS_INTERNAL, "bad arguments to semantic merge");
    merge_state s;
    memset(&s, 0, sizeof s);
    folio_document *docs[3] = {NULL, NULL, NULL};
    const uint8_t *bytes[3] = {base_bytes, ours_bytes, theirs_bytes};
    size_t sizes[3] = {base_size, ours_size, theirs_size};
    folio_status status = FOLIO_STATUS_OK;
    for (int k = 0; k < 3 && status == FOLIO_STATUS_OK; k++) status = editor->open(editor, bytes[k], sizes[k], &docs[k], out_error);
    if (status != FOLIO_STATUS_OK) goto done;
    s.base = docs[0]; s.ours = docs[1]; s.theirs = docs[2];
    size_t nb = s.base->count ? s.base->count : 1;
    s.bo = malloc(nb * sizeof *s.bo);
    s.bt = malloc(nb * sizeof *s.bt);
    s.ao = malloc((s.ours->count ? s.ours->count : 1) * sizeof *s.ao);
    s.at = malloc((s.theirs->count ? s.theirs->count : 1) * sizeof *s.at);
    s.out = calloc(1, sizeof *s.out);
    size_t capacity = s.base->count + s.ours->count + s.theirs->count;
    if (s.out != NULL) s.out->items = calloc(capacity ? capacity : 1, sizeof(shape));
    if (s.bo == NULL || s.bt == NULL || s.ao == NULL || s.at == NULL || s.out == NULL || s.out->items == NULL ||
        !shapes_match(s.base, s.ours, s.bo) || !shapes_match(s.base, s.theirs, s.bt)) {
        status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    anchors(s.ours, s.bo, s.base->count, s.ao);
    anchors(s.theirs, s.bt, s.base->count, s.at);
    merge_all(&s);
    if (s.c.count > 0) {
        if (s.c.count * 64 > sizeof s.c.text && s.c.length + 40 < sizeof s.c.text) conflict(&s.c, "(%zu conflicts in all)", s.c.count - 1);
        status = folio_buffer_set(out_conflicts, s.c.text, s.c.length);
        status = status == FOLIO_STATUS_OK ? FOLIO_STATUS_CONFLICT : folio_fail(out_error, status, "out of memory");
    } else {
        status = editor->serialize(editor, s.out, out_merged, out_error);
    }
done:
    if (s.out != NULL) editor->release(editor, s.out);
    free(s.bo); free(s.bt); free(s.ao); free(s.at);
    for (int k = 0; k < 3; k++) if (docs[k] != NULL) editor->release(editor, docs[k]);
    return status;
}

const folio_semantic_merge_v1 shapes_semantic_merge = {sizeof(folio_semantic_merge_v1), 0, shapes_merge};
