/* Shapes: three-way semantic merge by id. Each side is matched against the base (shapes_match: by id; shapes of
 * documents written before ids by content), and a matched shape takes the base's id on both sides, so ids name the same
 * shape in all three versions. Then:
 *  - fields (kind, position, size, colour, and every unknown field as an opaque value): one changed on one side only
 *    takes that change; changed alike on both, that value; changed differently, a conflict naming the shape and field;
 *  - a shape removed on one side and changed (or restacked) on the other is a conflict; removed and unchanged, it goes;
 *  - order (the stacking order, later drawn over earlier): the shapes both sides kept in their base order (the longest
 *    run of them each side left in order) are the skeleton; each side's other shapes (added, or restacked by it) form
 *    runs after the skeleton shape before them, and two runs at one place come one after the other, never interleaved,
 *    ordered by their ids, so either side merging gives the same drawing. A shape restacked to different places by the
 *    two sides is a conflict.
 * The result is checked against the three versions before it is returned (check_merge); a check that fails is a
 * conflict, never a wrong merge. */
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

/* A field's name as one safe line for a conflict: at most 40 bytes, never cut inside a character, controls as '?'. */
static void safe_name(const char *name, char out[48]) {
    int n = utf8_prefix(name, 40);
    for (int i = 0; i < n; i++) out[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
    out[n] = 0;
}

/* ---- Fields ------------------------------------------------------------------------------------------------ */

enum { FIELD_KIND, FIELD_POSITION, FIELD_SIZE, FIELD_COLOR, KNOWN_FIELDS };
static const char *const field_names[] = {"kind", "position", "size", "colour"};

static int known_equal(const shape *a, const shape *b, int f) {
    switch (f) {
    case FIELD_KIND: return a->kind == b->kind;
    case FIELD_POSITION: return a->x == b->x && a->y == b->y;
    case FIELD_SIZE: return a->w == b->w && a->h == b->h;
    default: return strcmp(a->color, b->color) == 0;
    }
}

static void known_set(shape *to, const shape *from, int f) {
    switch (f) {
    case FIELD_KIND: to->kind = from->kind; break;
    case FIELD_POSITION: to->x = from->x; to->y = from->y; break;
    case FIELD_SIZE: to->w = from->w; to->h = from->h; break;
    default: memcpy(to->color, from->color, sizeof to->color);
    }
}

/* Two unknown values alike: both absent, or both there with the same text. */
static int value_equal(const field *a, const field *b) {
    if (a == NULL || b == NULL) return a == b;
    return a->value_length == b->value_length && memcmp(a->value, b->value, a->value_length) == 0;
}

/* The same unknown fields with the same values, in any order. */
static int fields_equal(const fields *a, const fields *b) {
    if (a->count != b->count) return 0;
    for (size_t i = 0; i < a->count; i++) if (!value_equal(&a->items[i], fields_find(b, a->items[i].name))) return 0;
    return 1;
}

static int shape_equal(const shape *a, const shape *b) {
    for (int f = 0; f < KNOWN_FIELDS; f++) if (!known_equal(a, b, f)) return 0;
    return fields_equal(&a->extra, &b->extra);
}

/* Appends a copy of `f` (when there is one) to `to`. 0: out of memory. */
static int fields_append(fields *to, const field *f) {
    if (f == NULL) return 1;
    field *grown = realloc(to->items, (to->count + 1) * sizeof *grown);
    if (grown == NULL) return 0;
    to->items = grown;
    field *slot = &to->items[to->count];
    slot->name = strdup(f->name);
    slot->key = malloc(f->key_length + 1);
    slot->value = malloc(f->value_length + 1);
    if (slot->name == NULL || slot->key == NULL || slot->value == NULL) { free(slot->name); free(slot->key); free(slot->value); return 0; }
    memcpy(slot->key, f->key, f->key_length);
    slot->key[f->key_length] = 0;
    slot->key_length = f->key_length;
    memcpy(slot->value, f->value, f->value_length);
    slot->value[f->value_length] = 0;
    slot->value_length = f->value_length;
    to->count++;
    return 1;
}

/* Merges unknown fields as opaque values. A side that changed none of them gives the other's as they are; otherwise
 * the base's names in its order, then the names new on either side in byte order (the same whichever side is ours).
 * `where` names the shape ("rect 2") or the drawing in a conflict. 0: out of memory. */
static int merge_fields(const fields *b, const fields *o, const fields *t, fields *out, const char *where, conflicts *c) {
    static const fields none = {0, NULL};
    if (b == NULL) b = &none;
    out->count = 0;
    out->items = NULL;
    if (fields_equal(o, b)) return fields_copy(out, t);
    if (fields_equal(t, b) || fields_equal(o, t)) return fields_copy(out, o);
    size_t total = b->count + o->count + t->count, names = 0;
    const char **order = malloc((total ? total : 1) * sizeof *order);
    if (order == NULL) return 0;
    for (size_t i = 0; i < b->count; i++) order[names++] = b->items[i].name;
    size_t first_new = names;
    const fields *sides[2] = {o, t};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k]->count; i++) {
            const char *name = sides[k]->items[i].name;
            int seen = fields_find(b, name) != NULL;
            for (size_t j = first_new; j < names && !seen; j++) seen = strcmp(order[j], name) == 0;
            if (!seen) order[names++] = name;
        }
    for (size_t i = first_new + 1; i < names; i++) /* insertion sort: a handful of names */
        for (size_t j = i; j > first_new && strcmp(order[j - 1], order[j]) > 0; j--) { const char *x = order[j]; order[j] = order[j - 1]; order[j - 1] = x; }
    int ok = 1;
    for (size_t i = 0; i < names && ok; i++) {
        const field *vb = fields_find(b, order[i]), *vo = fields_find(o, order[i]), *vt = fields_find(t, order[i]);
        if (value_equal(vo, vb)) ok = fields_append(out, vt);
        else if (value_equal(vt, vb) || value_equal(vo, vt)) ok = fields_append(out, vo);
        else {
            char name[48];
            safe_name(order[i], name);
            conflict(c, "%s: field '%s' changed differently by us and by them", where, name);
        }
    }
    free(order);
    if (!ok) fields_clear(out);
    return ok;
}

/* Merges one shape kept on both sides, field by field, into `m` (owned by the caller). `b` is NULL for a shape both
 * sides added with the same id. 0: out of memory. */
static int merge_shape(const shape *b, const shape *o, const shape *t, size_t number, shape *m, conflicts *c) {
    if (b != NULL && shape_equal(o, b)) return shape_copy(m, t);
    if ((b != NULL && shape_equal(t, b)) || shape_equal(o, t)) return shape_copy(m, o);
    char where[48];
    snprintf(where, sizeof where, "%s %zu", kind_name((b != NULL ? b : o)->kind), number);
    *m = *o;
    m->extra = (fields){0, NULL};
    if (b == NULL) { /* added on both sides with one id, differently: nothing says which fields each side meant */
        conflict(c, "%s: added differently by us and by them", where);
        return 1;
    }
    for (int f = 0; f < KNOWN_FIELDS; f++) {
        if (known_equal(o, b, f)) known_set(m, t, f);
        else if (known_equal(t, b, f) || known_equal(o, t, f)) known_set(m, o, f);
        else if (f == FIELD_POSITION) conflict(c, "%s: moved to (%lld, %lld) by us, to (%lld, %lld) by them", where, o->x, o->y, t->x, t->y);
        else if (f == FIELD_SIZE) conflict(c, "%s: resized to %lld x %lld by us, to %lld x %lld by them", where, o->w, o->h, t->w, t->h);
        else if (f == FIELD_COLOR) conflict(c, "%s: recoloured %s by us, %s by them", where, o->color, t->color);
        else conflict(c, "%s: made a%s %s by us, a%s %s by them", where, o->kind == KIND_ELLIPSE ? "n" : "", kind_name(o->kind),
                      t->kind == KIND_ELLIPSE ? "n" : "", kind_name(t->kind));
    }
    return merge_fields(&b->extra, &o->extra, &t->extra, &m->extra, where, c);
}

/* ---- Order ------------------------------------------------------------------------------------------------- */

/* Marks `stable[k]` for a longest increasing subsequence of `seq` (n values, all different): the shapes a side left
 * in their base order. Patience sorting, O(n log n); ties resolved the same way every time. 0: out of memory. */
static int longest_increasing(const long *seq, size_t n, char *stable) {
    long *tails = malloc((n ? n : 1) * sizeof *tails), *previous = malloc((n ? n : 1) * sizeof *previous);
    size_t length = 0;
    if (tails == NULL || previous == NULL) { free(tails); free(previous); return 0; }
    for (size_t k = 0; k < n; k++) {
        size_t low = 0, high = length;
        while (low < high) {
            size_t mid = (low + high) / 2;
            if (seq[tails[mid]] < seq[k]) low = mid + 1;
            else high = mid;
        }
        previous[k] = low > 0 ? tails[low - 1] : -1;
        tails[low] = (long)k;
        if (low == length) length++;
        stable[k] = 0;
    }
    for (long k = length ? tails[length - 1] : -1; k >= 0; k = previous[k]) stable[k] = 1;
    free(tails);
    free(previous);
    return 1;
}

typedef struct side {
    folio_document *doc;
    long *from_base; /* base index → this side's index, or -1 */
    long *to_base;   /* this side's index → base index, or -1 (added) */
    char *moved;     /* this side's index: a shape both sides kept that this side restacked */
    size_t *anchor;  /* this side's index: where its run goes (base index + 1 of the skeleton shape before it, 0: first),
                        or (size_t)-1 when it is not in a run of this side */
    id_index index;
} side;

typedef struct merge_state {
    folio_document *base;
    side sides[2]; /* ours, theirs */
    char *skeleton; /* base index: kept by both sides and restacked by neither */
    shape *merged;  /* base index: the merged shape, when both sides kept it (`has_merged`) */
    char *has_merged;
    folio_document *out;
    id_index placed; /* the ids in `out` so far */
    conflicts c;
} merge_state;

/* Which of this side's shapes both sides kept but this side restacked. */
static int find_moves(merge_state *s, side *x, const side *y) {
    size_t n = x->doc->count, kept = 0;
    long *seq = malloc((n ? n : 1) * sizeof *seq);
    size_t *at = malloc((n ? n : 1) * sizeof *at);
    char *stable = malloc(n ? n : 1);
    int ok = seq != NULL && at != NULL && stable != NULL;
    for (size_t j = 0; ok && j < n; j++) {
        x->moved[j] = 0;
        long i = x->to_base[j];
        if (i >= 0 && y->from_base[i] >= 0) { seq[kept] = i; at[kept++] = j; }
    }
    if (ok) ok = longest_increasing(seq, kept, stable);
    for (size_t k = 0; ok && k < kept; k++) x->moved[at[k]] = !stable[k];
    (void)s;
    free(seq);
    free(at);
    free(stable);
    return ok;
}

/* Where each of this side's run shapes (added, or restacked by it) goes: after the skeleton shape before it. */
static void find_runs(merge_state *s, side *x) {
    size_t anchor = 0;
    for (size_t j = 0; j < x->doc->count; j++) {
        long i = x->to_base[j];
        x->anchor[j] = (size_t)-1;
        if (i >= 0 && s->skeleton[i]) anchor = (size_t)i + 1;
        else if (i < 0 || x->moved[j]) x->anchor[j] = anchor;
    }
}

/* Appends a copy of the shape with this id as merged: both sides' merge when both kept it, else the one side's.
 * A shape already placed (added with the same id by both sides, or restacked alike by both) is placed once. */
static int place(merge_state *s, const side *x, size_t j) {
    const shape *from = &x->doc->items[j];
    long i = x->to_base[j];
    shape *slot = &s->out->items[s->out->count];
    if (i >= 0 && !s->has_merged[i]) return 1; /* the other side removed it: a conflict said so if it was changed */
    if (i >= 0) { if (!shape_copy(slot, &s->merged[i])) return 0; }
    else if (!shape_copy(slot, from)) return 0;
    if (!id_index_add(&s->placed, s->out->count)) { shape_clear(slot); return 1; }
    s->out->count++;
    return 1;
}

/* Compares two runs by their ids, one after the other (the shorter first when one begins the other). */
static int run_order(const side *a, const size_t *ra, size_t na, const side *b, const size_t *rb, size_t nb) {
    for (size_t k = 0; k < na && k < nb; k++) {
        int d = strcmp(a->doc->items[ra[k]].id, b->doc->items[rb[k]].id);
        if (d != 0) return d;
    }
    return na < nb ? -1 : na > nb ? 1 : 0;
}

/* Lays out the drawing: at each place, the two sides' runs (lowest ids first), then the skeleton shape. */
static int lay_out(merge_state *s) {
    size_t nb = s->base->count;
    size_t *runs[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        const side *x = &s->sides[k];
        runs[k] = malloc((x->doc->count ? x->doc->count : 1) * sizeof *runs[k]);
        if (runs[k] == NULL) { free(runs[0]); free(runs[1]); return 0; }
    }
    /* Each side's run shapes in its order: their places never decrease along a side (the skeleton is in base order on
     * both), so each place's run is the next stretch of them. */
    size_t counts[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (size_t j = 0; j < s->sides[k].doc->count; j++)
            if (s->sides[k].anchor[j] != (size_t)-1) runs[k][counts[k]++] = j;
    size_t at[2] = {0, 0};
    int ok = 1;
    for (size_t anchor = 0; anchor <= nb && ok; anchor++) {
        size_t begin[2], n[2];
        for (int k = 0; k < 2; k++) {
            begin[k] = at[k];
            while (at[k] < counts[k] && s->sides[k].anchor[runs[k][at[k]]] == anchor) at[k]++;
            n[k] = at[k] - begin[k];
        }
        int first = run_order(&s->sides[0], runs[0] + begin[0], n[0], &s->sides[1], runs[1] + begin[1], n[1]) <= 0 ? 0 : 1;
        for (int pass = 0; pass < 2 && ok; pass++) {
            int k = pass == 0 ? first : 1 - first;
            for (size_t r = 0; r < n[k] && ok; r++) ok = place(s, &s->sides[k], runs[k][begin[k] + r]);
        }
        if (ok && anchor < nb && s->skeleton[anchor]) ok = place(s, &s->sides[0], (size_t)s->sides[0].from_base[anchor]);
    }
    free(runs[0]);
    free(runs[1]);
    return ok;
}

/* ---- Checking the result ------------------------------------------------------------------------------------ */

/* Whether every unknown field of `m` is as one side (NULL: absent there) has it, and as the side that changed it made
 * it when the field was in the base and both sides kept the shape (`b`). */
static int check_fields(const fields *m, const fields *o, const fields *t, const fields *b) {
    const fields *all[3] = {m, o, t};
    for (int k = 0; k < 3; k++) {
        if (all[k] == NULL) continue;
        for (size_t i = 0; i < all[k]->count; i++) {
            const char *name = all[k]->items[i].name;
            const field *vm = fields_find(m, name), *vo = o != NULL ? fields_find(o, name) : NULL, *vt = t != NULL ? fields_find(t, name) : NULL,
                        *vb = b != NULL ? fields_find(b, name) : NULL;
            int from_o = o != NULL && value_equal(vm, vo), from_t = t != NULL && value_equal(vm, vt);
            int lost = b != NULL && o != NULL && t != NULL && ((value_equal(vo, vb) && !from_t) || (value_equal(vt, vb) && !from_o));
            if ((!from_o && !from_t) || lost) return 0;
        }
    }
    return 1;
}

/* Checks the merged drawing against the three versions, by id, independently of how it was made: no id twice; every
 * field of every shape as ours or theirs has it, and the change of a side that changed it; every shape both sides kept
 * and every shape added is there; a shape one side removed and the other left unchanged is not. Fills `why`. */
static int check_merge(const folio_document *base, const side *ours, const side *theirs, const folio_document *out, char *why, size_t size) {
    id_index index = {0}, base_index = {0};
    int ok = id_index_init(&index, out->items, out->count) && id_index_build(&base_index, base->items, base->count);
    if (!ok) { snprintf(why, size, "out of memory"); goto done; }
    for (size_t j = 0; j < out->count && ok; j++)
        if (!id_index_add(&index, j)) { snprintf(why, size, "shape id %s twice", out->items[j].id); ok = 0; }
    for (size_t j = 0; j < out->count && ok; j++) {
        const shape *m = &out->items[j];
        long io = id_index_find(&ours->index, m->id), it = id_index_find(&theirs->index, m->id), ib = id_index_find(&base_index, m->id);
        const shape *o = io >= 0 ? &ours->doc->items[io] : NULL, *t = it >= 0 ? &theirs->doc->items[it] : NULL, *b = ib >= 0 ? &base->items[ib] : NULL;
        if (o == NULL && t == NULL) { snprintf(why, size, "shape %zu is on neither side", j + 1); ok = 0; break; }
        for (int f = 0; f < KNOWN_FIELDS && ok; f++) {
            int from_o = o != NULL && known_equal(m, o, f), from_t = t != NULL && known_equal(m, t, f);
            int lost = b != NULL && o != NULL && t != NULL && ((known_equal(o, b, f) && !from_t) || (known_equal(t, b, f) && !from_o));
            if ((!from_o && !from_t) || lost) { snprintf(why, size, "the %s of shape %zu is not what either side made it", field_names[f], j + 1); ok = 0; }
        }
        if (ok && !check_fields(&m->extra, o != NULL ? &o->extra : NULL, t != NULL ? &t->extra : NULL, b != NULL ? &b->extra : NULL)) {
            snprintf(why, size, "a field of shape %zu is not what either side made it", j + 1);
            ok = 0;
        }
    }
    for (size_t i = 0; i < base->count && ok; i++) {
        const shape *b = &base->items[i];
        long io = id_index_find(&ours->index, b->id), it = id_index_find(&theirs->index, b->id), im = id_index_find(&index, b->id);
        if (io >= 0 && it >= 0 && im < 0) { snprintf(why, size, "a shape both sides kept is missing"); ok = 0; }
        else if (im >= 0 && ((io < 0 && it >= 0 && shape_equal(&theirs->doc->items[it], b)) || (it < 0 && io >= 0 && shape_equal(&ours->doc->items[io], b)))) {
            snprintf(why, size, "a shape one side removed is still there"); ok = 0;
        }
    }
    const side *pair[2] = {ours, theirs};
    for (int k = 0; k < 2 && ok; k++)
        for (size_t j = 0; j < pair[k]->doc->count && ok; j++)
            if (id_index_find(&base_index, pair[k]->doc->items[j].id) < 0 && id_index_find(&index, pair[k]->doc->items[j].id) < 0) {
                snprintf(why, size, "a shape added by %s is missing", k == 0 ? "us" : "them"); ok = 0;
            }
    if (ok && !check_fields(&out->extra, &ours->doc->extra, &theirs->doc->extra, &base->extra)) { snprintf(why, size, "a field of the drawing is not what either side made it"); ok = 0; }
done:
    id_index_free(&index);
    id_index_free(&base_index);
    return ok;
}

/* ---- The merge ----------------------------------------------------------------------------------------------- */

static int match_side(merge_state *s, side *x) {
    size_t nb = s->base->count, n = x->doc->count;
    x->from_base = malloc((nb ? nb : 1) * sizeof *x->from_base);
    x->to_base = malloc((n ? n : 1) * sizeof *x->to_base);
    x->moved = calloc(n ? n : 1, 1);
    x->anchor = malloc((n ? n : 1) * sizeof *x->anchor);
    if (x->from_base == NULL || x->to_base == NULL || x->moved == NULL || x->anchor == NULL || !shapes_match(s->base, x->doc, x->from_base)) return 0;
    for (size_t j = 0; j < n; j++) x->to_base[j] = -1;
    for (size_t i = 0; i < nb; i++) {
        long j = x->from_base[i];
        if (j < 0) continue;
        x->to_base[j] = (long)i;
        memcpy(x->doc->items[j].id, s->base->items[i].id, ID_CAPACITY); /* the same shape: one id in all three */
    }
    return id_index_build(&x->index, x->doc->items, n);
}

static void free_side(side *x) {
    free(x->from_base);
    free(x->to_base);
    free(x->moved);
    free(x->anchor);
    id_index_free(&x->index);
}

/* Merges by id into s->out, with conflicts in s->c. 0: out of memory. */
static int merge_all(merge_state *s) {
    size_t nb = s->base->count;
    side *o = &s->sides[0], *t = &s->sides[1];
    if (!match_side(s, o) || !match_side(s, t)) return 0;
    s->skeleton = calloc(nb ? nb : 1, 1);
    s->merged = calloc(nb ? nb : 1, sizeof *s->merged);
    s->has_merged = calloc(nb ? nb : 1, 1);
    if (s->skeleton == NULL || s->merged == NULL || s->has_merged == NULL) return 0;
    if (!find_moves(s, o, t) || !find_moves(s, t, o)) return 0;
    /* Fields of the shapes both kept; removals. */
    for (size_t i = 0; i < nb; i++) {
        const shape *b = &s->base->items[i];
        long jo = o->from_base[i], jt = t->from_base[i];
        if (jo >= 0 && jt >= 0) {
            if (!merge_shape(b, &o->doc->items[jo], &t->doc->items[jt], i + 1, &s->merged[i], &s->c)) return 0;
            s->has_merged[i] = 1;
            s->skeleton[i] = !o->moved[jo] && !t->moved[jt];
        } else if (jo >= 0 && !shape_equal(b, &o->doc->items[jo])) conflict(&s->c, "%s %zu: changed by us, removed by them", kind_name(b->kind), i + 1);
        else if (jt >= 0 && !shape_equal(b, &t->doc->items[jt])) conflict(&s->c, "%s %zu: removed by us, changed by them", kind_name(b->kind), i + 1);
    }
    find_runs(s, o);
    find_runs(s, t);
    /* A shape both restacked, to different places; a shape both added with one id. */
    for (size_t j = 0; j < o->doc->count; j++) {
        long i = o->to_base[j], k = i >= 0 ? t->from_base[i] : id_index_find(&t->index, o->doc->items[j].id);
        if (i >= 0 && k >= 0 && o->moved[j] && t->moved[k] && o->anchor[j] != t->anchor[k])
            conflict(&s->c, "%s %zu: restacked differently by us and by them", kind_name(s->base->items[i].kind), (size_t)i + 1);
        if (i < 0 && k >= 0) {
            shape m;
            if (!merge_shape(NULL, &o->doc->items[j], &t->doc->items[k], j + 1, &m, &s->c)) return 0;
            shape_clear(&m);
        }
    }
    size_t capacity = nb + o->doc->count + t->doc->count;
    s->out = document_new(capacity ? capacity : 1);
    if (s->out == NULL || !id_index_init(&s->placed, s->out->items, capacity)) return 0;
    if (!lay_out(s)) return 0;
    /* The drawing's own unknown fields. */
    return merge_fields(&s->base->extra, &o->doc->extra, &t->doc->extra, &s->out->extra, "the drawing", &s->c);
}

static folio_status shapes_merge(const folio_editor *editor, const uint8_t *base_bytes, size_t base_size, const uint8_t *ours_bytes,
                                 size_t ours_size, const uint8_t *theirs_bytes, size_t theirs_size, folio_buffer *out_merged,
                                 folio_buffer *out_conflicts, folio_buffer *out_error) {
    if (editor == NULL || editor->open == NULL || editor->release == NULL || editor->serialize == NULL || (base_bytes == NULL && base_size > 0) ||
        (ours_bytes == NULL && ours_size > 0) || (theirs_bytes == NULL && theirs_size > 0))
        return folio_fail(out_error, FOLIO_STATUS_INTERNAL, "bad arguments to semantic merge");
    static const uint8_t none = 0;
    merge_state s;
    memset(&s, 0, sizeof s);
    folio_document *docs[3] = {NULL, NULL, NULL};
    const uint8_t *bytes[3] = {base_bytes ? base_bytes : &none, ours_bytes ? ours_bytes : &none, theirs_bytes ? theirs_bytes : &none};
    size_t sizes[3] = {base_size, ours_size, theirs_size};
    folio_status status = FOLIO_STATUS_OK;
    for (int k = 0; k < 3 && status == FOLIO_STATUS_OK; k++) status = editor->open(editor, bytes[k], sizes[k], &docs[k], out_error);
    if (status != FOLIO_STATUS_OK) goto done;
    /* A side that changed nothing: the other side is the merge. */
    if (ours_size == base_size && memcmp(bytes[1], bytes[0], base_size) == 0) { status = editor->serialize(editor, docs[2], out_merged, out_error); goto done; }
    if ((theirs_size == base_size && memcmp(bytes[2], bytes[0], base_size) == 0) || (theirs_size == ours_size && memcmp(bytes[2], bytes[1], ours_size) == 0)) {
        status = editor->serialize(editor, docs[1], out_merged, out_error);
        goto done;
    }
    s.base = docs[0];
    s.sides[0].doc = docs[1];
    s.sides[1].doc = docs[2];
    if (!merge_all(&s)) { status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); goto done; }
    if (s.c.count == 0) {
        char why[160];
        if (!check_merge(s.base, &s.sides[0], &s.sides[1], s.out, why, sizeof why))
            conflict(&s.c, "the merged drawing failed its check (%s): nothing was merged", why);
    }
    if (s.c.count > 0) {
        if (s.c.count * 64 > sizeof s.c.text && s.c.length + 40 < sizeof s.c.text) conflict(&s.c, "(%zu conflicts in all)", s.c.count - 1);
        status = folio_buffer_set(out_conflicts, s.c.text, s.c.length);
        status = status == FOLIO_STATUS_OK ? FOLIO_STATUS_CONFLICT : folio_fail(out_error, status, "out of memory");
    } else {
        status = editor->serialize(editor, s.out, out_merged, out_error);
    }
done:
    if (s.out != NULL) editor->release(editor, s.out);
    id_index_free(&s.placed);
    for (int k = 0; k < 2; k++) free_side(&s.sides[k]);
    for (size_t i = 0; s.merged != NULL && i < s.base->count; i++) if (s.has_merged[i]) shape_clear(&s.merged[i]);
    free(s.merged);
    free(s.has_merged);
    free(s.skeleton);
    for (int k = 0; k < 3; k++) if (docs[k] != NULL) editor->release(editor, docs[k]);
    return status;
}

const folio_semantic_merge_v1 shapes_semantic_merge = {sizeof(folio_semantic_merge_v1), 0, shapes_merge};
