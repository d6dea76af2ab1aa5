/* Shapes: a C editor plugin for drawings of rectangles and ellipses, written directly against folio_plugin.h.
 * Document: {"shapes":[{"id":"3f9a0c1b7e2d","kind":"rect","x":1,"y":2,"w":10,"h":4,"color":"red"}]}. Each shape's id is
 * kept by every command and never shown; fields this plugin does not know, on a shape or at the top, are kept as written.
 * Everything from the outside (document bytes, arguments, sizes) is bounds-checked; nothing here aborts. */
#include "shapes.h"
#include "shapes_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHAPES 100000
#define MAX_COORDINATE 1000000LL
#define MAX_SIZE 1000000LL

const char *kind_name(int kind) { return kind == KIND_ELLIPSE ? "ellipse" : "rect"; }

/* The colours a command may set: the terminal's eight, so a host can show each as itself. A document written
 * elsewhere may hold any colour valid_color accepts; it is kept and shown by name, only commands are held to the list. */
#define COLOR_CHOICES "black|red|green|yellow|blue|magenta|cyan|white"
static const char *const color_names[] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};

static int named_color(const char *color) {
    for (size_t i = 0; i < sizeof color_names / sizeof color_names[0]; i++)
        if (strcmp(color, color_names[i]) == 0) return 1;
    return 0;
}

static int valid_color(const char *color) {
    size_t n = strlen(color);
    if (n == 0 || n >= COLOR_CAPACITY) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = color[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '#' || c == '-')) return 0;
    }
    return 1;
}

folio_document *document_new(size_t capacity) {
    folio_document *doc = calloc(1, sizeof *doc);
    if (doc == NULL) return NULL;
    if (capacity > 0) {
        doc->items = calloc(capacity, sizeof(shape));
        if (doc->items == NULL) { free(doc); return NULL; }
    }
    return doc;
}

void fields_clear(fields *f) {
    for (size_t i = 0; i < f->count; i++) {
        free(f->items[i].name);
        free(f->items[i].key);
        free(f->items[i].value);
    }
    free(f->items);
    f->items = NULL;
    f->count = 0;
}

static char *copy_bytes(const char *bytes, size_t n) {
    char *copy = malloc(n + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, bytes, n);
    copy[n] = 0;
    return copy;
}

/* Sets field `name` (taken: freed on failure) to the raw key and value; a repeated name replaces the earlier value
 * where it was, as a repeated known key does (the last one wins). 0: out of memory. */
static int fields_set(fields *f, char *name, const char *key, size_t key_length, const char *value, size_t value_length) {
    char *k = copy_bytes(key, key_length), *v = copy_bytes(value, value_length);
    field *slot = NULL;
    for (size_t i = 0; i < f->count && slot == NULL; i++) if (strcmp(f->items[i].name, name) == 0) slot = &f->items[i];
    if (k != NULL && v != NULL && slot == NULL) {
        field *grown = realloc(f->items, (f->count + 1) * sizeof *grown);
        if (grown != NULL) { f->items = grown; slot = &f->items[f->count++]; slot->name = NULL; slot->key = NULL; slot->value = NULL; }
    }
    if (slot == NULL || k == NULL || v == NULL) { free(k); free(v); free(name); return 0; }
    free(slot->name); free(slot->key); free(slot->value);
    *slot = (field){name, k, key_length, v, value_length};
    return 1;
}

int fields_copy(fields *to, const fields *from) {
    to->count = 0;
    to->items = NULL;
    for (size_t i = 0; i < from->count; i++) {
        const field *f = &from->items[i];
        char *name = copy_bytes(f->name, strlen(f->name));
        if (name == NULL || !fields_set(to, name, f->key, f->key_length, f->value, f->value_length)) { fields_clear(to); return 0; }
    }
    return 1;
}

const field *fields_find(const fields *f, const char *name) {
    for (size_t i = 0; i < f->count; i++) if (strcmp(f->items[i].name, name) == 0) return &f->items[i];
    return NULL;
}

int shape_copy(shape *to, const shape *from) {
    *to = *from;
    return fields_copy(&to->extra, &from->extra);
}

void shape_clear(shape *s) { fields_clear(&s->extra); }

void document_free(folio_document *doc) {
    if (doc == NULL) return;
    for (size_t i = 0; i < doc->count; i++) shape_clear(&doc->items[i]);
    fields_clear(&doc->extra);
    free(doc->items);
    free(doc);
}

/* A deep copy of `doc` with room for `more` shapes; NULL when out of memory. */
static folio_document *document_copy(const folio_document *doc, size_t more) {
    folio_document *copy = document_new(doc->count + more);
    if (copy == NULL) return NULL;
    int ok = fields_copy(&copy->extra, &doc->extra);
    for (size_t i = 0; ok && i < doc->count; i++) {
        ok = shape_copy(&copy->items[i], &doc->items[i]);
        if (ok) copy->count++;
    }
    if (!ok) { document_free(copy); return NULL; }
    return copy;
}

/* ---- Reading ------------------------------------------------------------------------------------------ */

/* One member's key: its raw text (`*start`..`*end`, quotes included) and `*name`, decoded (malloc'd). */
static int read_key(json_reader *r, char **name, size_t *start, size_t *end) {
    *name = NULL;
    if (!json_raw_value(r, start, end)) return 0;
    if (r->bytes[*start] != '"') { r->pos = *start; snprintf(r->error, sizeof r->error, "expected a key at byte %zu", *start); return 0; }
    json_reader key = {r->bytes + *start, *end - *start, 0, {0}};
    *name = malloc(*end - *start);
    if (*name == NULL) { snprintf(r->error, sizeof r->error, "out of memory"); return 0; }
    if (!json_string(&key, *name, *end - *start, NULL)) { free(*name); *name = NULL; snprintf(r->error, sizeof r->error, "%s", key.error); return 0; }
    return 1;
}

/* Keeps the value that follows as field `name` (taken) of `extra`, byte for byte. */
static int keep_unknown(json_reader *r, fields *extra, char *name, size_t key_start, size_t key_end) {
    size_t start, end;
    if (!json_raw_value(r, &start, &end)) { free(name); return 0; }
    if (!fields_set(extra, name, (const char *)r->bytes + key_start, key_end - key_start, (const char *)r->bytes + start, end - start)) {
        snprintf(r->error, sizeof r->error, "out of memory");
        return 0;
    }
    return 1;
}

static int read_shape(json_reader *r, shape *out) {
    int have_kind = 0, have_x = 0, have_y = 0, have_w = 0, have_h = 0;
    memset(out, 0, sizeof *out);
    strcpy(out->color, "black");
    if (!json_expect(r, '{')) return 0;
    if (!json_try(r, '}')) {
        do {
            char *key;
            size_t key_start, key_end;
            if (!read_key(r, &key, &key_start, &key_end)) return 0;
            if (!json_expect(r, ':')) { free(key); return 0; }
            int ok = 1;
            if (strcmp(key, "kind") == 0) {
                char kind[16];
                ok = json_string(r, kind, sizeof kind, NULL);
                if (ok && strcmp(kind, "rect") == 0) out->kind = KIND_RECT;
                else if (ok && strcmp(kind, "ellipse") == 0) out->kind = KIND_ELLIPSE;
                else if (ok) { snprintf(r->error, sizeof r->error, "unknown kind '%s' (rect or ellipse)", kind); ok = 0; }
                have_kind = 1;
            } else if (strcmp(key, "id") == 0) {
                ok = json_string(r, out->id, sizeof out->id, NULL);
                if (ok && !shapes_valid_id(out->id)) { snprintf(r->error, sizeof r->error, "bad id (1 to 32 letters, digits, '-' or '_')"); ok = 0; }
            } else if (strcmp(key, "x") == 0) { ok = json_integer(r, -MAX_COORDINATE, MAX_COORDINATE, &out->x); have_x = 1; }
            else if (strcmp(key, "y") == 0) { ok = json_integer(r, -MAX_COORDINATE, MAX_COORDINATE, &out->y); have_y = 1; }
            else if (strcmp(key, "w") == 0) { ok = json_integer(r, 0, MAX_SIZE, &out->w); have_w = 1; }
            else if (strcmp(key, "h") == 0) { ok = json_integer(r, 0, MAX_SIZE, &out->h); have_h = 1; }
            else if (strcmp(key, "color") == 0) {
                ok = json_string(r, out->color, sizeof out->color, NULL);
                if (ok && !valid_color(out->color)) { snprintf(r->error, sizeof r->error, "bad color (letters, digits, '#', '-')"); ok = 0; }
            } else {
                if (!keep_unknown(r, &out->extra, key, key_start, key_end)) return 0;
                continue;
            }
            free(key);
            if (!ok) return 0;
        } while (json_try(r, ','));
        if (!json_expect(r, '}')) return 0;
    }
    if (!(have_kind && have_x && have_y && have_w && have_h)) {
        snprintf(r->error, sizeof r->error, "a shape needs kind, x, y, w and h");
        return 0;
    }
    return 1;
}

static folio_status read_document(const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *error) {
    json_reader r = {bytes, size, 0, {0}};
    size_t capacity = 16;
    folio_document *doc = document_new(capacity);
    if (doc == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    int empty = 1;
    for (size_t i = 0; i < size; i++) if (bytes[i] != ' ' && bytes[i] != '\n' && bytes[i] != '\r' && bytes[i] != '\t') { empty = 0; break; }
    if (!empty) {
        int ok = json_expect(&r, '{');
        if (ok && !json_try(&r, '}')) {
            do {
                char *key;
                size_t key_start, key_end;
                ok = read_key(&r, &key, &key_start, &key_end);
                if (ok && !json_expect(&r, ':')) { free(key); ok = 0; }
                if (!ok) break;
                if (strcmp(key, "shapes") != 0) { ok = keep_unknown(&r, &doc->extra, key, key_start, key_end); if (!ok) break; continue; }
                free(key);
                for (size_t i = 0; i < doc->count; i++) shape_clear(&doc->items[i]);
                doc->count = 0; /* a repeated key: the last one wins */
                ok = json_expect(&r, '[');
                if (!ok) break;
                if (json_try(&r, ']')) continue;
                do {
                    if (doc->count >= MAX_SHAPES) { snprintf(r.error, sizeof r.error, "more than %d shapes", MAX_SHAPES); ok = 0; break; }
                    if (doc->count == capacity) {
                        shape *grown = realloc(doc->items, capacity * 2 * sizeof(shape));
                        if (grown == NULL) { document_free(doc); return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); }
                        doc->items = grown;
                        capacity *= 2;
                    }
                    ok = read_shape(&r, &doc->items[doc->count]);
                    if (!ok) { shape_clear(&doc->items[doc->count]); break; }
                    doc->count++;
                } while (json_try(&r, ','));
                if (ok) ok = json_expect(&r, ']');
                if (!ok) break;
            } while (json_try(&r, ','));
            if (ok) ok = json_expect(&r, '}');
        }
        if (ok) ok = json_at_end(&r);
        if (!ok) {
            char message[220];
            snprintf(message, sizeof message, "not a shapes document: %s", r.error[0] ? r.error : "malformed JSON");
            document_free(doc);
            return folio_fail(error, FOLIO_STATUS_INVALID_DOCUMENT, message);
        }
    }
    if (!shapes_assign_ids(doc)) { document_free(doc); return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); }
    *out = doc;
    return FOLIO_STATUS_OK;
}

/* ---- Editor operations ---------------------------------------------------------------------------------- */

static folio_status shapes_open(const folio_editor *editor, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *error) {
    (void)editor;
    if (out == NULL || (bytes == NULL && size > 0)) return folio_fail(error, FOLIO_STATUS_INTERNAL, "bad arguments to open");
    return read_document(bytes, size, out, error);
}

/* Unknown fields as they were written, each after `separator`. */
static void add_fields(text *t, const fields *f, const char *separator) {
    for (size_t i = 0; i < f->count; i++) {
        text_add(t, separator, strlen(separator));
        text_add(t, f->items[i].key, f->items[i].key_length);
        text_add(t, ": ", 2);
        text_add(t, f->items[i].value, f->items[i].value_length);
    }
}

static folio_status shapes_serialize(const folio_editor *editor, const folio_document *doc, folio_buffer *out, folio_buffer *error) {
    (void)editor;
    if (doc == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "no document");
    text t = {0};
    text_add(&t, "{\"shapes\": [", 12);
    for (size_t i = 0; i < doc->count; i++) {
        const shape *s = &doc->items[i];
        text_add(&t, i == 0 ? "\n  " : ",\n  ", i == 0 ? 3 : 4);
        char line[256];
        /* An id has only letters, digits, '-' and '_', a colour letters, digits, '#' and '-': nothing to escape. */
        int n = snprintf(line, sizeof line, "{\"id\": \"%s\", \"kind\": \"%s\", \"x\": %lld, \"y\": %lld, \"w\": %lld, \"h\": %lld, \"color\": \"%s\"",
                         s->id, kind_name(s->kind), s->x, s->y, s->w, s->h, s->color);
        if (n > 0) text_add(&t, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        add_fields(&t, &s->extra, ", ");
        text_add(&t, "}", 1);
    }
    text_add(&t, doc->count ? "\n]" : "]", doc->count ? 2 : 1);
    add_fields(&t, &doc->extra, ",\n");
    text_add(&t, "}\n", 2);
    return text_finish(&t, out, error);
}

/* Reads argument strings (a JSON array of strings) into a fixed table. */
#define MAX_ARGUMENTS 8
typedef struct arguments {
    int count;
    char values[MAX_ARGUMENTS][64];
} arguments;

static int read_arguments(const char *json, arguments *args, char *error, size_t error_size) {
    args->count = 0;
    if (json == NULL) return 1;
    json_reader r = {(const uint8_t *)json, strlen(json), 0, {0}};
    int ok = json_expect(&r, '[');
    if (ok && !json_try(&r, ']')) {
        do {
            if (args->count >= MAX_ARGUMENTS) { snprintf(error, error_size, "too many arguments"); return 0; }
            ok = json_string(&r, args->values[args->count], sizeof args->values[0], NULL);
            if (!ok) break;
            args->count++;
        } while (json_try(&r, ','));
        if (ok) ok = json_expect(&r, ']');
    }
    if (ok) ok = json_at_end(&r);
    if (!ok) snprintf(error, error_size, "arguments must be a JSON array of short strings (%s)", r.error);
    return ok;
}

static int parse_number(const char *digits, long long minimum, long long maximum, long long *out) {
    if (digits == NULL || *digits == 0) return 0;
    errno = 0;
    char *end = NULL;
    long long value = strtoll(digits, &end, 10);
    if (errno != 0 || end == digits || *end != 0) return 0;
    if (value < minimum || value > maximum) return 0;
    *out = value;
    return 1;
}

int utf8_prefix(const char *text, int most) {
    int n = (int)strnlen(text, (size_t)most);
    if (n == most) while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    return n;
}

static folio_status bad(folio_buffer *error, const char *what, const char *value, const char *usage) {
    char message[200];
    snprintf(message, sizeof message, "%s: got '%.*s' (usage: %s)", what, utf8_prefix(value, 40), value, usage);
    return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);
}

static folio_status bad_color(folio_buffer *error, const char *value) {
    char message[200];
    snprintf(message, sizeof message, "COLOR must be one of %s: got '%.*s'", "black, red, green, yellow, blue, magenta, cyan, white",
             utf8_prefix(value, 40), value);
    return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);
}

static folio_status expect_count(const arguments *args, int minimum, int maximum, const char *usage, folio_buffer *error) {
    if (args->count < minimum || args->count > maximum) {
        char message[160];
        snprintf(message, sizeof message, "expected %d%s argument%s, got %d (usage: %s)", minimum,
                 maximum > minimum ? " or more" : "", minimum == 1 && maximum == 1 ? "" : "s", args->count, usage);
        return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);
    }
    return FOLIO_STATUS_OK;
}

static folio_status item_number(const arguments *args, int index, size_t count, const char *usage, size_t *out, folio_buffer *error) {
    long long n;
    if (count == 0) return bad(error, "there are no shapes", args->values[index], usage);
    if (!parse_number(args->values[index], 1, (long long)count, &n)) {
        char what[80];
        snprintf(what, sizeof what, "N must be a shape number from 1 to %zu", count);
        return bad(error, what, args->values[index], usage);
    }
    *out = (size_t)(n - 1);
    return FOLIO_STATUS_OK;
}

/* Items `first`..`last` (0-based) named by "N" or "A-B" (either order), among `count`. */
static folio_status item_range(const arguments *args, int index, size_t count, const char *usage, size_t *first, size_t *last,
                               folio_buffer *error) {
    const char *value = args->values[index];
    const char *dash = strchr(value, '-');
    if (dash == NULL || dash == value) {
        if ((item_number(args, index, count, usage, first, error)) != FOLIO_STATUS_OK) return FOLIO_STATUS_INVALID_ARGUMENT;
        *last = *first;
        return FOLIO_STATUS_OK;
    }
    char low[32];
    size_t n = (size_t)(dash - value);
    if (n >= sizeof low) return bad(error, "N must be a shape number or a range A-B", value, usage);
    memcpy(low, value, n);
    low[n] = 0;
    long long a, b;
    if (count == 0) return bad(error, "there are no shapes", value, usage);
    if (!parse_number(low, 1, (long long)count, &a) || !parse_number(dash + 1, 1, (long long)count, &b)) {
        char what[80];
        snprintf(what, sizeof what, "N must be shape numbers from 1 to %zu", count);
        return bad(error, what, value, usage);
    }
    *first = (size_t)((a < b ? a : b) - 1);
    *last = (size_t)((a < b ? b : a) - 1);
    return FOLIO_STATUS_OK;
}

/* The shapes a command on items acts on: its first argument ("N" or "A-B"), or, when that argument is left out, the
 * selection Folio passed (cursor and anchor, either way round). `*given` is how many arguments precede the values. */
static folio_status command_items(const arguments *args, int values, const folio_selection *selection, size_t count, const char *usage,
                                  size_t *first, size_t *last, int *given, folio_buffer *error) {
    long long cursor = 0, anchor = 0;
    if (selection != NULL && FOLIO_SELECTION_HAS(selection, anchor)) { cursor = selection->cursor; anchor = selection->anchor; }
    if (args->count == values && cursor >= 1) {
        long long low = anchor >= 1 && anchor < cursor ? anchor : cursor, high = anchor > cursor ? anchor : cursor;
        if (high > (long long)count) {
            char message[160];
            if (low == high) snprintf(message, sizeof message, "the selected shape %lld is out of range: there are %zu shapes (usage: %s)", low, count, usage);
            else snprintf(message, sizeof message, "the selection %lld-%lld is out of range: there are %zu shapes (usage: %s)", low, high, count, usage);
            return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);
        }
        *first = (size_t)(low - 1);
        *last = (size_t)(high - 1);
        *given = 0;
        return FOLIO_STATUS_OK;
    }
    folio_status status = expect_count(args, values + 1, values + 1, usage, error);
    if (status != FOLIO_STATUS_OK) return status;
    *given = 1;
    return item_range(args, 0, count, usage, first, last, error);
}

/* Shapes first..last moved (or resized) so that the first gets `a` x `b`, the others by the same change: a group keeps
 * its arrangement. A size never drops below 1 nor a value past the limits. */
static void shift_shapes(folio_document *doc, size_t first, size_t last, int moving, long long a, long long b, long long *da, long long *db) {
    shape *lead = &doc->items[first];
    *da = a - (moving ? lead->x : lead->w);
    *db = b - (moving ? lead->y : lead->h);
    long long low = moving ? -MAX_COORDINATE : 1, high = moving ? MAX_COORDINATE : MAX_SIZE;
    for (size_t i = first; i <= last; i++) {
        long long *p = moving ? &doc->items[i].x : &doc->items[i].w, *q = moving ? &doc->items[i].y : &doc->items[i].h;
        long long x = *p + *da, y = *q + *db;
        *p = x < low ? low : x > high ? high : x;
        *q = y < low ? low : y > high ? high : y;
    }
}

/* move, resize, delete and color: on one shape, a range "A-B", or the selection when N is left out. */
static folio_status apply_on_items(folio_document *next, const char *command, const arguments *args, const folio_selection *selection,
                                   char *message, size_t message_size, folio_buffer *error) {
    int moving = command[0] == 'm', resizing = command[0] == 'r', coloring = command[0] == 'c';
    const char *usage = moving ? "move [N:range] X:int Y:int" : resizing ? "resize [N:range] W:int+ H:int+"
                      : coloring ? "color [N:range] " COLOR_CHOICES : "delete [N:range]";
    int values = moving || resizing ? 2 : coloring ? 1 : 0, given = 0;
    size_t first, last;
    folio_status status = command_items(args, values, selection, next->count, usage, &first, &last, &given, error);
    if (status != FOLIO_STATUS_OK) return status;
    char which[64];
    if (first == last) snprintf(which, sizeof which, "%s %zu", kind_name(next->items[first].kind), first + 1);
    else snprintf(which, sizeof which, "shapes %zu-%zu", first + 1, last + 1);
    if (command[0] == 'd') {
        snprintf(message, message_size, "deleted %s", which);
        for (size_t i = first; i <= last; i++) shape_clear(&next->items[i]);
        memmove(&next->items[first], &next->items[last + 1], (next->count - last - 1) * sizeof(shape));
        next->count -= last - first + 1;
        return FOLIO_STATUS_OK;
    }
    if (coloring) {
        const char *color = args->values[given];
        if (!named_color(color)) return bad_color(error, color);
        for (size_t i = first; i <= last; i++) snprintf(next->items[i].color, sizeof next->items[i].color, "%s", color);
        snprintf(message, message_size, "coloured %s %s", which, color);
        return FOLIO_STATUS_OK;
    }
    long long a, b, da, db, low = moving ? -MAX_COORDINATE : 1, high = moving ? MAX_COORDINATE : MAX_SIZE;
    if (!parse_number(args->values[given], low, high, &a))
        return bad(error, moving ? "X must be a whole number" : "W must be a whole number of at least 1", args->values[given], usage);
    if (!parse_number(args->values[given + 1], low, high, &b))
        return bad(error, moving ? "Y must be a whole number" : "H must be a whole number of at least 1", args->values[given + 1], usage);
    shift_shapes(next, first, last, moving, a, b, &da, &db);
    if (first == last)
        snprintf(message, message_size, "%s %s to %s(%lld, %lld)", moving ? "moved" : "resized", which, moving ? "" : "size ", a, b);
    else
        snprintf(message, message_size, "%s %s by (%+lld, %+lld)", moving ? "moved" : "resized", which, da, db);
    return FOLIO_STATUS_OK;
}

static folio_status shapes_apply(const folio_editor *editor, const folio_document *doc, const char *command, const char *arguments_json,
                                 const folio_selection *selection, folio_document **out, folio_buffer *description, folio_buffer *error) {
    (void)editor;
    if (doc == NULL || command == NULL || out == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "bad arguments to apply");
    arguments args;
    char message[200];
    if (!read_arguments(arguments_json, &args, message, sizeof message)) return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);

    folio_document *next = document_copy(doc, 1);
    if (next == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    folio_status status = FOLIO_STATUS_OK;

    if (strcmp(command, "add") == 0) {
        const char *usage = "add rect|ellipse X:int Y:int W:int+ H:int+ [" COLOR_CHOICES "]";
        shape s;
        memset(&s, 0, sizeof s);
        strcpy(s.color, "black");
        if ((status = expect_count(&args, 5, 6, usage, error)) != FOLIO_STATUS_OK) goto failed;
        if (strcmp(args.values[0], "rect") == 0) s.kind = KIND_RECT;
        else if (strcmp(args.values[0], "ellipse") == 0) s.kind = KIND_ELLIPSE;
        else { status = bad(error, "the kind must be rect or ellipse", args.values[0], usage); goto failed; }
        if (!parse_number(args.values[1], -MAX_COORDINATE, MAX_COORDINATE, &s.x)) { status = bad(error, "X must be a whole number", args.values[1], usage); goto failed; }
        if (!parse_number(args.values[2], -MAX_COORDINATE, MAX_COORDINATE, &s.y)) { status = bad(error, "Y must be a whole number", args.values[2], usage); goto failed; }
        if (!parse_number(args.values[3], 1, MAX_SIZE, &s.w)) { status = bad(error, "W must be a whole number of at least 1", args.values[3], usage); goto failed; }
        if (!parse_number(args.values[4], 1, MAX_SIZE, &s.h)) { status = bad(error, "H must be a whole number of at least 1", args.values[4], usage); goto failed; }
        if (args.count == 6) {
            if (!named_color(args.values[5])) { status = bad_color(error, args.values[5]); goto failed; }
            snprintf(s.color, sizeof s.color, "%s", args.values[5]);
        }
        if (next->count >= MAX_SHAPES) { status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "too many shapes"); goto failed; }
        if (!shapes_fresh_id(next, s.id)) { status = folio_fail(error, FOLIO_STATUS_INTERNAL, "no randomness for the new shape's id (getrandom failed)"); goto failed; }
        next->items[next->count++] = s;
        snprintf(message, sizeof message, "added %s %zu at (%lld, %lld), %lld x %lld, %s", kind_name(s.kind), next->count, s.x, s.y, s.w, s.h, s.color);
    } else if (strcmp(command, "move") == 0 || strcmp(command, "resize") == 0 || strcmp(command, "delete") == 0 ||
               strcmp(command, "color") == 0) {
        if ((status = apply_on_items(next, command, &args, selection, message, sizeof message, error)) != FOLIO_STATUS_OK) goto failed;
    } else {
        snprintf(message, sizeof message, "unknown command '%.*s' (commands: add, move, resize, delete, color)", utf8_prefix(command, 40), command);
        status = folio_fail(error, FOLIO_STATUS_UNKNOWN_COMMAND, message);
        goto failed;
    }
    status = folio_buffer_set(description, message, strlen(message));
    if (status != FOLIO_STATUS_OK) { status = folio_fail(error, status, "out of memory"); goto failed; }
    *out = next;
    return FOLIO_STATUS_OK;

failed:
    document_free(next);
    return status;
}

static void shapes_release(const folio_editor *editor, folio_document *doc) {
    (void)editor;
    document_free(doc);
}

/* folio.argument-values/1: the values the form of move, resize or color starts from, those of the first shape the command
 * acts on (the selection's first, else the cursor's): move X Y where it is (move is absolute: it puts that shape at X Y
 * and the others of a range by as much, so its form starts from "no move" and one edited number moves it along one
 * axis), resize W H, color its colour. The item argument is the host's (null). Other commands have none. */
static folio_status shapes_argument_values(const folio_editor *editor, const folio_document *doc, const char *command,
                                           const folio_selection *selection, folio_buffer *out, folio_buffer *error) {
    (void)editor;
    if (doc == NULL || command == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "bad arguments to argument values");
    int moving = strcmp(command, "move") == 0, resizing = strcmp(command, "resize") == 0, coloring = strcmp(command, "color") == 0;
    if (!moving && !resizing && !coloring) {
        int known = strcmp(command, "add") == 0 || strcmp(command, "delete") == 0;
        return folio_fail(error, known ? FOLIO_STATUS_UNSUPPORTED : FOLIO_STATUS_UNKNOWN_COMMAND, known ? "no values" : "unknown command");
    }
    long long cursor = 0, anchor = 0;
    if (selection != NULL && FOLIO_SELECTION_HAS(selection, anchor)) { cursor = selection->cursor; anchor = selection->anchor; }
    long long first = anchor >= 1 && anchor < cursor ? anchor : cursor;
    if (first < 1 || first > (long long)doc->count) return folio_fail(error, FOLIO_STATUS_UNSUPPORTED, "no shape under the cursor");
    const shape *s = &doc->items[first - 1];
    char json[96];
    /* A colour has only letters, digits, '#' and '-' (`valid_color`): no JSON escaping needed. */
    if (coloring) snprintf(json, sizeof json, "[null, \"%s\"]", s->color);
    else snprintf(json, sizeof json, "[null, \"%lld\", \"%lld\"]", moving ? s->x : s->w, moving ? s->y : s->h);
    return folio_buffer_set(out, json, strlen(json));
}

static const folio_argument_values_v1 shapes_values = {sizeof(folio_argument_values_v1), 0, shapes_argument_values};

static const void *shapes_extension(const folio_editor *editor, const char *id) {
    (void)editor;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_ARGUMENT_VALUES) == 0) return &shapes_values;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_SEMANTIC_DIFF) == 0) return &shapes_semantic_diff;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_SEMANTIC_MERGE) == 0) return &shapes_semantic_merge;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_ITEMS) == 0) return &shapes_items;
    return NULL;
}

/* ---- Descriptor ---------------------------------------------------------------------------------------- */

#define COMMAND(ID, TITLE, KEY, USAGE, FLAGS) \
    static const folio_command_info command_##ID = {sizeof(folio_command_info), FLAGS, #ID, TITLE, KEY, USAGE};
/* [N:range]: one shape or a range A-B; left out, the selection Folio passes (`folio edit D delete --selection 2-3`). On a range, move and resize put the first shape at X Y (or make it
 * W x H) and change the others by the same amount, so the group keeps its arrangement. */
COMMAND(add, "Add shape", "a", "add rect|ellipse X:int Y:int W:int+ H:int+ [" COLOR_CHOICES "]", 0)
COMMAND(move, "Move shapes", "m", "move [N:range] X:int Y:int", FOLIO_COMMAND_NEEDS_SELECTION)
COMMAND(resize, "Resize shapes", "s", "resize [N:range] W:int+ H:int+", FOLIO_COMMAND_NEEDS_SELECTION)
COMMAND(delete, "Delete shapes", "d", "delete [N:range]", FOLIO_COMMAND_NEEDS_SELECTION)
COMMAND(color, "Colour shapes", "c", "color [N:range] " COLOR_CHOICES, FOLIO_COMMAND_NEEDS_SELECTION)
static const folio_command_info *const commands[] = {&command_add, &command_move, &command_resize, &command_delete, &command_color};

static const char *const content_types[] = {"org.folio.shapes"};
static const char *const shapes_conforms[] = {"public.json"};
static const char *const shapes_extensions[] = {"shapes"};
static const folio_type_declaration shapes_type = {
    sizeof(folio_type_declaration), 0, "org.folio.shapes", shapes_conforms, 1, shapes_extensions, 1, "A shape drawing"};
static const folio_type_declaration *const declared_types[] = {&shapes_type};

static const folio_editor shapes_editor = {
    .struct_size = sizeof(folio_editor),
    .priority = FOLIO_PRIORITY_DEFAULT,
    .id = "shapes",
    .name = "Shapes",
    .content_types = content_types,
    .content_type_count = 1,
    .declared_types = declared_types,
    .declared_type_count = 1,
    .commands = commands,
    .command_count = sizeof commands / sizeof commands[0],
    .context = NULL,
    .open = shapes_open,
    .apply = shapes_apply,
    .serialize = shapes_serialize,
    .render = shapes_render,
    .release = shapes_release,
    .extension = shapes_extension,
};
static const folio_editor *const editors[] = {&shapes_editor};

static const folio_plugin_descriptor descriptor = {
    .magic = FOLIO_PLUGIN_MAGIC,
    .abi_major = FOLIO_PLUGIN_ABI_MAJOR,
    .abi_minor = FOLIO_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(folio_plugin_descriptor),
    .id = "org.folio.plugins.shapes",
    .name = "Shapes",
    .version = "1.0.0",
    .editors = editors,
    .editor_count = 1,
};

__attribute__((visibility("default"))) const folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor; }
