/* Shapes: ids. Every shape has one, written in the document as "id" and kept by every command; a new shape gets 12
 * random lowercase hex digits (getrandom(2)). A document written without ids (the format before them) gets ids derived
 * from each shape's content and its occurrence among shapes with the same content, so every machine reading the same
 * bytes gives the same ids and two clones that migrate independently agree. */
#include "shapes_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

uint64_t shapes_hash(uint64_t hash, const void *bytes, size_t n) {
    const uint8_t *p = bytes;
    for (size_t i = 0; i < n; i++) hash = (hash ^ p[i]) * 0x100000001b3ULL;
    return hash;
}

int shapes_valid_id(const char *id) {
    size_t n = strnlen(id, ID_CAPACITY);
    if (n == 0 || n >= ID_CAPACITY) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return 0;
    }
    return 1;
}

/* ---- An index by id ---------------------------------------------------------------------------------------- */

static size_t slot_of(const id_index *index, const char *id) {
    return (size_t)shapes_hash(SHAPES_HASH_START, id, strlen(id)) & (index->capacity - 1);
}

int id_index_init(id_index *index, const shape *items, size_t count) {
    index->items = items;
    index->capacity = 16;
    while (index->capacity < count * 2 + 1) index->capacity *= 2;
    index->slots = malloc(index->capacity * sizeof *index->slots);
    if (index->slots == NULL) return 0;
    for (size_t i = 0; i < index->capacity; i++) index->slots[i] = -1;
    return 1;
}

int id_index_add(id_index *index, size_t j) {
    size_t slot = slot_of(index, index->items[j].id);
    while (index->slots[slot] >= 0) {
        if (strcmp(index->items[index->slots[slot]].id, index->items[j].id) == 0) return 0;
        slot = (slot + 1) & (index->capacity - 1);
    }
    index->slots[slot] = (long)j;
    return 1;
}

int id_index_build(id_index *index, const shape *items, size_t count) {
    if (!id_index_init(index, items, count)) return 0;
    for (size_t j = 0; j < count; j++) (void)id_index_add(index, j); /* a repeated id: the first is found */
    return 1;
}

long id_index_find(const id_index *index, const char *id) {
    if (index->slots == NULL) return -1;
    for (size_t slot = slot_of(index, id);; slot = (slot + 1) & (index->capacity - 1)) {
        long j = index->slots[slot];
        if (j < 0) return -1;
        if (strcmp(index->items[j].id, id) == 0) return j;
    }
}

void id_index_free(id_index *index) {
    free(index->slots);
    index->slots = NULL;
}

/* ---- Derived ids ------------------------------------------------------------------------------------------ */

/* A hash of everything a shape holds but its id and its place: kind, position, size, colour, unknown fields. */
static uint64_t content_hash(const shape *s) {
    char known[160];
    int n = snprintf(known, sizeof known, "folio-shapes-id/1|%d|%lld|%lld|%lld|%lld|%s", s->kind, s->x, s->y, s->w, s->h, s->color);
    uint64_t hash = shapes_hash(SHAPES_HASH_START, known, n > 0 && (size_t)n < sizeof known ? (size_t)n : 0);
    for (size_t i = 0; i < s->extra.count; i++) {
        const field *f = &s->extra.items[i];
        hash = shapes_hash(hash, "|", 1);
        hash = shapes_hash(hash, f->name, strlen(f->name));
        hash = shapes_hash(hash, "=", 1);
        hash = shapes_hash(hash, f->value, f->value_length);
    }
    return hash;
}

/* Occurrence counts by content hash: open addressing over (hash, count) pairs. */
typedef struct counts {
    size_t capacity;
    uint64_t *keys;
    size_t *values; /* 0: empty slot (a stored count is at least 1) */
} counts;

static size_t *count_slot(counts *c, uint64_t key) {
    for (size_t slot = (size_t)(key ^ (key >> 29)) & (c->capacity - 1);; slot = (slot + 1) & (c->capacity - 1)) {
        if (c->values[slot] == 0) { c->keys[slot] = key; return &c->values[slot]; }
        if (c->keys[slot] == key) return &c->values[slot];
    }
}

static void hex48(uint64_t value, char out[ID_CAPACITY]) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 11; i >= 0; i--) { out[i] = digits[value & 15]; value >>= 4; }
    out[12] = 0;
}

int shapes_assign_ids(folio_document *doc) {
    if (doc->count == 0) return 1;
    char *needs = calloc(doc->count, 1);
    id_index index = {0};
    counts c = {16, NULL, NULL};
    while (c.capacity < doc->count * 2 + 1) c.capacity *= 2;
    c.keys = malloc(c.capacity * sizeof *c.keys);
    c.values = calloc(c.capacity, sizeof *c.values);
    int ok = needs != NULL && c.keys != NULL && c.values != NULL && id_index_init(&index, doc->items, doc->count);
    if (ok) {
        /* The shapes that keep their ids: every one written, but a repeat of an earlier one. */
        for (size_t j = 0; j < doc->count; j++) needs[j] = doc->items[j].id[0] == 0 || !id_index_add(&index, j);
        /* The others, in order: a hash of the content and its occurrence; one taken (by a kept id, or an earlier given
         * one through the hash) is tried again with a salt. */
        for (size_t j = 0; j < doc->count; j++) {
            if (!needs[j]) continue;
            shape *s = &doc->items[j];
            uint64_t content = content_hash(s);
            size_t *seen = count_slot(&c, content);
            size_t occurrence = (*seen)++;
            for (uint64_t salt = 0;; salt++) {
                char suffix[48];
                int n = snprintf(suffix, sizeof suffix, "#%zu#%llu", occurrence, (unsigned long long)salt);
                hex48(shapes_hash(content, suffix, (size_t)n), s->id);
                if (id_index_add(&index, j)) break;
            }
            s->id_derived = 1;
        }
    }
    id_index_free(&index);
    free(needs);
    free(c.keys);
    free(c.values);
    return ok;
}

int shapes_fresh_id(const folio_document *doc, char out[ID_CAPACITY]) {
    for (int attempt = 0; attempt < 16; attempt++) {
        uint8_t bytes[8] = {0};
        size_t got = 0;
        while (got < 6) {
            ssize_t n = getrandom(bytes + got, 6 - got, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return 0;
            got += (size_t)n;
        }
        uint64_t value = 0;
        for (int i = 0; i < 6; i++) value = value << 8 | bytes[i];
        hex48(value, out);
        int clash = 0;
        for (size_t j = 0; j < doc->count && !clash; j++) clash = strcmp(doc->items[j].id, out) == 0;
        if (!clash) return 1;
    }
    return 0;
}
