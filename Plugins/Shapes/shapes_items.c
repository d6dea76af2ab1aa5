/* Shapes: items (folio.items/1). A shape's key is its number in the drawing, as the view numbers shapes (1, 2, …).
 * The ABI's item line has no id field, so the id stays inside: a shape is matched with the earlier version by its id
 * (shapes_match, as the semantic diff and merge match them; only shapes of documents written without ids, whose ids
 * were derived, are matched by content when their ids differ). */
#include "shapes_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *item_kind(int kind) { return kind == KIND_ELLIPSE ? "ellipse" : "rect"; }

/* 64-bit FNV-1a of a shape's fields, unknown ones included (its id and its place in the drawing are not among them). */
static uint64_t fingerprint(const shape *s) {
    char fields[160];
    int n = snprintf(fields, sizeof fields, "%d|%lld|%lld|%lld|%lld|%s", s->kind, s->x, s->y, s->w, s->h, s->color);
    uint64_t hash = shapes_hash(SHAPES_HASH_START, fields, n > 0 && (size_t)n < sizeof fields ? (size_t)n : 0);
    for (size_t i = 0; i < s->extra.count; i++) {
        hash = shapes_hash(hash, "|", 1);
        hash = shapes_hash(hash, s->extra.items[i].name, strlen(s->extra.items[i].name));
        hash = shapes_hash(hash, "=", 1);
        hash = shapes_hash(hash, s->extra.items[i].value, s->extra.items[i].value_length);
    }
    return hash;
}


/* Opens `bytes` with the editor's own open; the handle is released by the caller with editor->release. */
static folio_status open_document(const folio_editor *editor, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *error) {
    static const uint8_t none = 0;
    return editor->open(editor, bytes != NULL ? bytes : &none, bytes != NULL ? size : 0, out, error);
}

static folio_status items_list(const folio_editor *editor, const uint8_t *previous, size_t previous_size, const uint8_t *bytes, size_t size,
                               folio_buffer *out_text, folio_buffer *out_error) {
    if (editor == NULL || editor->open == NULL || editor->release == NULL || (bytes == NULL && size > 0))
        return folio_fail(out_error, FOLIO_STATUS_INTERNAL, "bad arguments to list items");
    folio_document *doc = NULL, *old = NULL;
    folio_status status = open_document(editor, bytes, size, &doc, out_error);
    if (status != FOLIO_STATUS_OK) return status;
    if (previous != NULL) {
        status = open_document(editor, previous, previous_size, &old, out_error);
        if (status != FOLIO_STATUS_OK) { editor->release(editor, doc); return status; }
    }
    long *new_to_old = malloc((doc->count ? doc->count : 1) * sizeof *new_to_old);
    long *old_to_new = old != NULL ? malloc((old->count ? old->count : 1) * sizeof *old_to_new) : NULL;
    int ok = new_to_old != NULL && (old == NULL || (old_to_new != NULL && shapes_match(old, doc, old_to_new)));
    text t = {0};
    if (ok) {
        for (size_t j = 0; j < doc->count; j++) new_to_old[j] = -1;
        for (size_t i = 0; old != NULL && i < old->count; i++) if (old_to_new[i] >= 0) new_to_old[old_to_new[i]] = (long)i;
        for (size_t j = 0; j < doc->count; j++) {
            const shape *s = &doc->items[j];
            char previous_key[24] = "", line[256];
            if (new_to_old[j] >= 0) snprintf(previous_key, sizeof previous_key, "%ld", new_to_old[j] + 1);
            int n = snprintf(line, sizeof line, "%zu\t%s\t%016llx\t%s at (%lld, %lld), %lld x %lld, %s\n", j + 1, previous_key,
                             (unsigned long long)fingerprint(s), item_kind(s->kind), s->x, s->y, s->w, s->h, s->color);
            if (n > 0) text_add(&t, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        }
    }
    if (!ok || t.failed) status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    else if (folio_buffer_set(out_text, t.data ? t.data : "", t.length) != FOLIO_STATUS_OK) status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    free(t.data);
    free(new_to_old);
    free(old_to_new);
    if (old != NULL) editor->release(editor, old);
    editor->release(editor, doc);
    return status;
}

/* A shape number from 1 to `count` (digits only), as an index; -1 otherwise. */
static long parse_key(const char *key, size_t count) {
    if (key == NULL || *key == 0 || strlen(key) > 9) return -1;
    long value = 0;
    for (const char *c = key; *c; c++) {
        if (*c < '0' || *c > '9') return -1;
        value = value * 10 + (*c - '0');
    }
    return value >= 1 && (size_t)value <= count ? value - 1 : -1;
}

static folio_status refuse_key(folio_buffer *error, const char *which, const char *key) {
    char message[160];
    snprintf(message, sizeof message, "no shape '%.*s' in the version to take %s", utf8_prefix(key ? key : "", 40), key ? key : "", which);
    return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);
}

/* Checks every key and fills where each taken shape comes from (`source`) and goes (`target`, -1: put back). */
static folio_status read_takes(const folio_document *from, const folio_document *into, const char *const *from_keys, const char *const *into_keys,
                               size_t count, long *source, long *target, folio_buffer *error) {
    char *used_from = calloc(from->count ? from->count : 1, 1), *used_into = calloc(into->count ? into->count : 1, 1);
    folio_status status = FOLIO_STATUS_OK;
    if (used_from == NULL || used_into == NULL) status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    for (size_t k = 0; k < count && status == FOLIO_STATUS_OK; k++) {
        source[k] = parse_key(from_keys[k], from->count);
        if (source[k] < 0 || used_from[source[k]]) { status = refuse_key(error, "from", from_keys[k]); break; }
        used_from[source[k]] = 1;
        target[k] = -1;
        if (into_keys[k] != NULL && into_keys[k][0] != 0) {
            target[k] = parse_key(into_keys[k], into->count);
            if (target[k] < 0 || used_into[target[k]]) { status = refuse_key(error, "into", into_keys[k]); break; }
            used_into[target[k]] = 1;
        }
    }
    free(used_from);
    free(used_into);
    return status;
}

/* Where shape `at` of `from`, gone from `result`, goes back: just above the nearest shape below it in `from` that
 * `result` still has (by id), so it keeps its place among its neighbours however many others either version lost;
 * at the bottom when nothing was below it; at its old number (or the top) when none of those is left. */
static size_t put_back_position(const folio_document *from, const folio_document *result, size_t at) {
    if (at == 0) return 0;
    for (size_t below = at; below-- > 0;)
        for (size_t j = 0; j < result->count; j++)
            if (strcmp(result->items[j].id, from->items[below].id) == 0) return j + 1;
    return at < result->count ? at : result->count;
}

/* Replaces the shapes still there (each keeps the id it has in `result`), then inserts the ones gone at their place
 * among their neighbours (`put_back_position`), lowest first, with the id they had (or a fresh one, should `result`
 * have that id). 0: out of memory or randomness. */
static int apply_takes(const folio_document *from, folio_document *result, const long *source, long *target, size_t count, char *description,
                       size_t description_size) {
    size_t described = 0;
    for (size_t k = 0; k < count; k++) {
        if (target[k] < 0) continue;
        shape taken;
        if (!shape_copy(&taken, &from->items[source[k]])) return 0;
        memcpy(taken.id, result->items[target[k]].id, sizeof taken.id);
        taken.id_derived = result->items[target[k]].id_derived;
        shape_clear(&result->items[target[k]]);
        result->items[target[k]] = taken;
        if (described++ == 0) snprintf(description, description_size, "put back %s %ld as it was", item_kind(from->items[source[k]].kind), target[k] + 1);
    }
    for (size_t done = 0; done < count; done++) {
        long next = -1;
        for (size_t k = 0; k < count; k++) if (target[k] == -1 && (next < 0 || source[k] < source[next])) next = (long)k;
        if (next < 0) break;
        size_t position = put_back_position(from, result, (size_t)source[next]);
        shape taken;
        if (!shape_copy(&taken, &from->items[source[next]])) return 0;
        int clash = 0;
        for (size_t j = 0; j < result->count && !clash; j++) clash = strcmp(result->items[j].id, taken.id) == 0;
        if (clash && !shapes_fresh_id(result, taken.id)) { shape_clear(&taken); return 0; }
        memmove(&result->items[position + 1], &result->items[position], (result->count - position) * sizeof(shape));
        result->items[position] = taken;
        result->count++;
        if (described++ == 0) snprintf(description, description_size, "brought back %s %zu", item_kind(from->items[source[next]].kind), position + 1);
        target[next] = -2; /* done */
    }
    if (described > 1) snprintf(description, description_size, "took back %zu shapes", described);
    if (described == 0) snprintf(description, description_size, "took no shapes");
    return 1;
}

static folio_status items_take(const folio_editor *editor, const uint8_t *from_bytes, size_t from_size, const uint8_t *into_bytes, size_t into_size,
                               const char *const *from_keys, const char *const *into_keys, size_t count, folio_buffer *out_bytes,
                               folio_buffer *out_description, folio_buffer *out_error) {
    if (editor == NULL || editor->open == NULL || editor->release == NULL || editor->serialize == NULL || (from_bytes == NULL && from_size > 0) ||
        (into_bytes == NULL && into_size > 0) || (count > 0 && (from_keys == NULL || into_keys == NULL)))
        return folio_fail(out_error, FOLIO_STATUS_INTERNAL, "bad arguments to take items");
    folio_document *from = NULL, *into = NULL, *result = NULL;
    folio_status status = open_document(editor, from_bytes, from_size, &from, out_error);
    if (status != FOLIO_STATUS_OK) return status;
    status = open_document(editor, into_bytes, into_size, &into, out_error);
    if (status != FOLIO_STATUS_OK) { editor->release(editor, from); return status; }
    long *source = NULL, *target = NULL;
    char description[160] = "";
    if (count > from->count) status = folio_fail(out_error, FOLIO_STATUS_INVALID_ARGUMENT, "more shapes to take than the version has");
    if (status == FOLIO_STATUS_OK) {
        source = malloc((count ? count : 1) * sizeof *source);
        target = malloc((count ? count : 1) * sizeof *target);
        result = document_new(into->count + count + 1);
        int copied = result != NULL && fields_copy(&result->extra, &into->extra);
        for (size_t j = 0; copied && j < into->count; j++) if ((copied = shape_copy(&result->items[j], &into->items[j]))) result->count++;
        if (source == NULL || target == NULL || !copied) status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (status == FOLIO_STATUS_OK) status = read_takes(from, into, from_keys, into_keys, count, source, target, out_error);
    if (status == FOLIO_STATUS_OK) {
        if (!apply_takes(from, result, source, target, count, description, sizeof description))
            status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else status = editor->serialize(editor, result, out_bytes, out_error);
    }
    if (status == FOLIO_STATUS_OK && folio_buffer_set(out_description, description, strlen(description)) != FOLIO_STATUS_OK) {
        folio_buffer_release(out_bytes);
        status = folio_fail(out_error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    free(source);
    free(target);
    if (result != NULL) editor->release(editor, result);
    editor->release(editor, from);
    editor->release(editor, into);
    return status;
}

const folio_items_v1 shapes_items = {sizeof(folio_items_v1), 0, items_list, items_take};
