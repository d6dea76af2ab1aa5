/* Shapes: a C editor plugin for drawings of rectangles and ellipses, written directly against folio_plugin.h.
 * Document: {"shapes":[{"kind":"rect","x":1,"y":2,"w":10,"h":4,"color":"red"}]}.
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
#define MAX_CANVAS 2000u

static const char *kind_name(int kind) { return kind == KIND_ELLIPSE ? "ellipse" : "rect"; }

static int valid_color(const char *color) {
    size_t n = strlen(color);
    if (n == 0 || n >= COLOR_CAPACITY) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = color[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '#' || c == '-')) return 0;
    }
    return 1;
}

static folio_document *document_new(size_t capacity) {
    folio_document *doc = calloc(1, sizeof *doc);
    if (doc == NULL) return NULL;
    if (capacity > 0) {
        doc->items = calloc(capacity, sizeof(shape));
        if (doc->items == NULL) { free(doc); return NULL; }
    }
    return doc;
}

static void document_free(folio_document *doc) {
    if (doc == NULL) return;
    free(doc->items);
    free(doc);
}

/* ---- Reading ------------------------------------------------------------------------------------------ */

static int read_shape(json_reader *r, shape *out) {
    int have_kind = 0, have_x = 0, have_y = 0, have_w = 0, have_h = 0;
    memset(out, 0, sizeof *out);
    strcpy(out->color, "black");
    if (!json_expect(r, '{')) return 0;
    if (!json_try(r, '}')) {
        do {
            char key[64];
            if (!json_string(r, key, sizeof key, NULL) || !json_expect(r, ':')) return 0;
            if (strcmp(key, "kind") == 0) {
                char kind[16];
                if (!json_string(r, kind, sizeof kind, NULL)) return 0;
                if (strcmp(kind, "rect") == 0) out->kind = KIND_RECT;
                else if (strcmp(kind, "ellipse") == 0) out->kind = KIND_ELLIPSE;
                else { snprintf(r->error, sizeof r->error, "unknown kind '%s' (rect or ellipse)", kind); return 0; }
                have_kind = 1;
            } else if (strcmp(key, "x") == 0) { if (!json_integer(r, -MAX_COORDINATE, MAX_COORDINATE, &out->x)) return 0; have_x = 1; }
            else if (strcmp(key, "y") == 0) { if (!json_integer(r, -MAX_COORDINATE, MAX_COORDINATE, &out->y)) return 0; have_y = 1; }
            else if (strcmp(key, "w") == 0) { if (!json_integer(r, 0, MAX_SIZE, &out->w)) return 0; have_w = 1; }
            else if (strcmp(key, "h") == 0) { if (!json_integer(r, 0, MAX_SIZE, &out->h)) return 0; have_h = 1; }
            else if (strcmp(key, "color") == 0) {
                if (!json_string(r, out->color, sizeof out->color, NULL)) return 0;
                if (!valid_color(out->color)) { snprintf(r->error, sizeof r->error, "bad color (letters, digits, '#', '-')"); return 0; }
            } else if (!json_skip_value(r)) {
                return 0;
            }
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
                char key[64];
                ok = json_string(&r, key, sizeof key, NULL) && json_expect(&r, ':');
                if (!ok) break;
                if (strcmp(key, "shapes") != 0) { ok = json_skip_value(&r); if (!ok) break; continue; }
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
                    if (!ok) break;
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
    *out = doc;
    return FOLIO_STATUS_OK;
}

/* ---- A growable text buffer ------------------------------------------------------------------------------ */

typedef struct text {
    char *data;
    size_t length, capacity;
    int failed;
} text;

static void text_add(text *t, const char *bytes, size_t n) {
    if (t->failed) return;
    if (t->length + n + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        while (capacity < t->length + n + 1) capacity *= 2;
        char *grown = realloc(t->data, capacity);
        if (grown == NULL) { t->failed = 1; return; }
        t->data = grown;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, bytes, n);
    t->length += n;
    t->data[t->length] = 0;
}

static void text_addf(text *t, const char *format, long long a, long long b, long long c, long long d) {
    char line[160];
    int n = snprintf(line, sizeof line, format, a, b, c, d);
    if (n > 0) text_add(t, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static folio_status text_finish(text *t, folio_buffer *out, folio_buffer *error) {
    folio_status status = t->failed ? FOLIO_STATUS_OUT_OF_MEMORY : folio_buffer_set(out, t->data ? t->data : "", t->length);
    free(t->data);
    if (status != FOLIO_STATUS_OK) return folio_fail(error, status, "out of memory");
    return FOLIO_STATUS_OK;
}

/* ---- Editor operations ---------------------------------------------------------------------------------- */

static folio_status shapes_open(const folio_editor *editor, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *error) {
    (void)editor;
    if (out == NULL || (bytes == NULL && size > 0)) return folio_fail(error, FOLIO_STATUS_INTERNAL, "bad arguments to open");
    return read_document(bytes, size, out, error);
}

static folio_status shapes_serialize(const folio_editor *editor, const folio_document *doc, folio_buffer *out, folio_buffer *error) {
    (void)editor;
    if (doc == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "no document");
    text t = {0};
    text_add(&t, "{\"shapes\": [", 12);
    for (size_t i = 0; i < doc->count; i++) {
        const shape *s = &doc->items[i];
        text_add(&t, i == 0 ? "\n  " : ",\n  ", i == 0 ? 3 : 4);
        char line[200];
        int n = snprintf(line, sizeof line, "{\"kind\": \"%s\", \"x\": %lld, \"y\": %lld, \"w\": %lld, \"h\": %lld, \"color\": \"%s\"}",
                         kind_name(s->kind), s->x, s->y, s->w, s->h, s->color);
        if (n > 0) text_add(&t, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    }
    text_add(&t, doc->count ? "\n]}\n" : "]}\n", doc->count ? 4 : 3);
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

static folio_status shapes_apply(const folio_editor *editor, const folio_document *doc, const char *command, const char *arguments_json,
                                 const folio_selection *selection, folio_document **out, folio_buffer *description, folio_buffer *error) {
    (void)editor;
    (void)selection;
    if (doc == NULL || command == NULL || out == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "bad arguments to apply");
    arguments args;
    char message[200];
    if (!read_arguments(arguments_json, &args, message, sizeof message)) return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, message);

    folio_document *next = document_new(doc->count + 1);
    if (next == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    if (doc->count > 0) memcpy(next->items, doc->items, doc->count * sizeof(shape));
    next->count = doc->count;
    folio_status status = FOLIO_STATUS_OK;

    if (strcmp(command, "add") == 0) {
        const char *usage = "add rect|ellipse X:int Y:int W:int+ H:int+ [COLOR]";
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
            if (!valid_color(args.values[5])) { status = bad(error, "COLOR must be a name or #rrggbb", args.values[5], usage); goto failed; }
            snprintf(s.color, sizeof s.color, "%s", args.values[5]);
        }
        if (next->count >= MAX_SHAPES) { status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "too many shapes"); goto failed; }
        next->items[next->count++] = s;
        snprintf(message, sizeof message, "added %s %zu at (%lld, %lld), %lld x %lld, %s", kind_name(s.kind), next->count, s.x, s.y, s.w, s.h, s.color);
    } else if (strcmp(command, "move") == 0 || strcmp(command, "resize") == 0) {
        int moving = command[0] == 'm';
        const char *usage = moving ? "move N X:int Y:int" : "resize N W:int+ H:int+";
        size_t index;
        long long a, b;
        if ((status = expect_count(&args, 3, 3, usage, error)) != FOLIO_STATUS_OK) goto failed;
        if ((status = item_number(&args, 0, next->count, usage, &index, error)) != FOLIO_STATUS_OK) goto failed;
        long long low = moving ? -MAX_COORDINATE : 1, high = moving ? MAX_COORDINATE : MAX_SIZE;
        if (!parse_number(args.values[1], low, high, &a)) { status = bad(error, moving ? "X must be a whole number" : "W must be a whole number of at least 1", args.values[1], usage); goto failed; }
        if (!parse_number(args.values[2], low, high, &b)) { status = bad(error, moving ? "Y must be a whole number" : "H must be a whole number of at least 1", args.values[2], usage); goto failed; }
        shape *s = &next->items[index];
        if (moving) { s->x = a; s->y = b; } else { s->w = a; s->h = b; }
        snprintf(message, sizeof message, "%s %s %zu to %s(%lld, %lld)", moving ? "moved" : "resized", kind_name(s->kind), index + 1,
                 moving ? "" : "size ", a, b);
    } else if (strcmp(command, "delete") == 0) {
        const char *usage = "delete N";
        size_t index, last;
        if ((status = expect_count(&args, 1, 1, usage, error)) != FOLIO_STATUS_OK) goto failed;
        if ((status = item_range(&args, 0, next->count, usage, &index, &last, error)) != FOLIO_STATUS_OK) goto failed;
        if (last == index) snprintf(message, sizeof message, "deleted %s %zu", kind_name(next->items[index].kind), index + 1);
        else snprintf(message, sizeof message, "deleted shapes %zu-%zu", index + 1, last + 1);
        memmove(&next->items[index], &next->items[last + 1], (next->count - last - 1) * sizeof(shape));
        next->count -= last - index + 1;
    } else {
        snprintf(message, sizeof message, "unknown command '%.*s' (commands: add, move, resize, delete)", utf8_prefix(command, 40), command);
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

/* ---- Rendering as a character-cell drawing ------------------------------------------------------------- */

static void plot(char *canvas, long long width, long long height, long long x, long long y, char c) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    canvas[y * width + x] = c;
}

static void draw(char *canvas, long long width, long long height, const shape *s, size_t number, int highlighted) {
    /* Only the part of the bounding box that is on the canvas is visited. */
    long long x0 = s->x, y0 = s->y, x1 = s->x + s->w - 1, y1 = s->y + s->h - 1;
    if (s->w <= 0 || s->h <= 0 || x1 < 0 || y1 < 0 || x0 >= width || y0 >= height) return;
    long long cx0 = x0 < 0 ? 0 : x0, cy0 = y0 < 0 ? 0 : y0;
    long long cx1 = x1 >= width ? width - 1 : x1, cy1 = y1 >= height ? height - 1 : y1;
    for (long long y = cy0; y <= cy1; y++) {
        for (long long x = cx0; x <= cx1; x++) {
            char c = 0;
            if (s->kind == KIND_RECT) {
                int top = y == y0 || y == y1, side = x == x0 || x == x1;
                if (top && side) c = '+';
                else if (top) c = '-';
                else if (side) c = '|';
            } else {
                /* Inside when ((x - cx) / rx)^2 + ((y - cy) / ry)^2 <= 1, in doubled integer units; border when a
                 * neighbour is outside. */
                double rx = (double)s->w / 2.0, ry = (double)s->h / 2.0;
                double cx = (double)x0 + rx, cy = (double)y0 + ry;
                #define INSIDE(px, py) ((((px) + 0.5 - cx) / rx) * (((px) + 0.5 - cx) / rx) + (((py) + 0.5 - cy) / ry) * (((py) + 0.5 - cy) / ry) <= 1.0)
                if (INSIDE((double)x, (double)y) &&
                    (!INSIDE((double)x - 1, (double)y) || !INSIDE((double)x + 1, (double)y) || !INSIDE((double)x, (double)y - 1) || !INSIDE((double)x, (double)y + 1)))
                    c = 'o';
                #undef INSIDE
            }
            if (c) plot(canvas, width, height, x, y, highlighted ? '*' : c);
        }
    }
    if (number < 10) plot(canvas, width, height, x0 + (s->w > 2 ? 1 : 0), y0 + (s->h > 2 ? 1 : 0), (char)('0' + number));
}

/* The view: a summary line, the numbered list of shapes (the items the cursor moves over, so that the
 * highlighted row is the shape commands act on), then the drawing with the selected shapes drawn in '*'. */
static folio_status shapes_render(const folio_editor *editor, const folio_document *doc, uint32_t width, uint32_t height,
                                  const folio_selection *selection, folio_buffer *out, folio_buffer *error) {
    (void)editor;
    if (doc == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "no document");
    long long w = width > MAX_CANVAS ? MAX_CANVAS : width, h = height > MAX_CANVAS ? MAX_CANVAS : height;
    long long cursor = 0, anchor = 0, scroll = 0, count = (long long)doc->count;
    if (selection != NULL && selection->struct_size >= sizeof(folio_selection)) {
        cursor = selection->cursor; anchor = selection->anchor; scroll = selection->scroll;
    }
    long long low = cursor, high = cursor;
    if (anchor >= 1 && anchor < low) low = anchor;
    if (anchor > high) high = anchor;
    text t = {0};
    if (w < 1 || h < 1) return text_finish(&t, out, error);
    char line[256];
    if (cursor >= 1 && cursor <= count) {
        const shape *s = &doc->items[cursor - 1];
        snprintf(line, sizeof line, "shape %lld of %zu: %s at (%lld, %lld), %lld x %lld, %s", cursor, doc->count, kind_name(s->kind),
                 s->x, s->y, s->w, s->h, s->color);
    } else {
        snprintf(line, sizeof line, "shapes: %zu", doc->count);
    }
    size_t n = strlen(line);
    text_add(&t, line, n > (size_t)w ? (size_t)w : n);
    long long room = h - 1;
    /* The list takes what it needs, at most half the rows below the summary (at least one). */
    long long listRows = count < (room + 1) / 2 ? count : (room + 1) / 2;
    if (h >= (long long)MAX_CANVAS) listRows = count < room ? count : room;
    long long first = scroll < 0 ? 0 : scroll;
    if (cursor >= 1 && cursor - 1 < first) first = cursor - 1;
    if (cursor >= 1 && cursor - 1 >= first + listRows) first = cursor - listRows;
    if (first > count - listRows) first = count - listRows;
    if (first < 0) first = 0;
    int digits = snprintf(NULL, 0, "%lld", count > 0 ? count : 1);
    for (long long i = first; i < first + listRows && i < count; i++) {
        const shape *s = &doc->items[i];
        snprintf(line, sizeof line, "%c%*lld %s at (%lld, %lld), %lld x %lld, %s", cursor == i + 1 ? '>' : ' ', digits, i + 1,
                 kind_name(s->kind), s->x, s->y, s->w, s->h, s->color);
        n = strlen(line);
        text_add(&t, "\n", 1);
        text_add(&t, line, n > (size_t)w ? (size_t)w : n);
    }
    long long rows = room - listRows;
    if (rows > 0) {
        char *canvas = malloc((size_t)(w * rows));
        if (canvas == NULL) { free(t.data); return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); }
        memset(canvas, ' ', (size_t)(w * rows));
        for (size_t i = 0; i < doc->count; i++) draw(canvas, w, rows, &doc->items[i], i + 1, (long long)i + 1 >= low && (long long)i + 1 <= high && low >= 1);
        for (long long y = 0; y < rows; y++) {
            long long end = w;
            while (end > 0 && canvas[y * w + end - 1] == ' ') end--;
            text_add(&t, "\n", 1);
            /* A drawing row never reads as a list row: it starts with '|' when it would start with a digit. */
            if (end > 0 && canvas[y * w] >= '0' && canvas[y * w] <= '9') canvas[y * w] = '|';
            text_add(&t, canvas + y * w, (size_t)end);
        }
        free(canvas);
    }
    return text_finish(&t, out, error);
}

static void shapes_release(const folio_editor *editor, folio_document *doc) {
    (void)editor;
    document_free(doc);
}

static const void *shapes_extension(const folio_editor *editor, const char *id) {
    (void)editor;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_SEMANTIC_DIFF) == 0) return &shapes_semantic_diff;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_SEMANTIC_MERGE) == 0) return &shapes_semantic_merge;
    if (id != NULL && strcmp(id, FOLIO_EXTENSION_ITEMS) == 0) return &shapes_items;
    return NULL;
}

/* ---- Descriptor ---------------------------------------------------------------------------------------- */

#define COMMAND(ID, TITLE, KEY, USAGE, FLAGS) \
    static const folio_command_info command_##ID = {sizeof(folio_command_info), FLAGS, #ID, TITLE, KEY, USAGE};
COMMAND(add, "Add shape", "a", "add rect|ellipse X:int Y:int W:int+ H:int+ [COLOR]", 0)
COMMAND(move, "Move shape", "m", "move N X:int Y:int", FOLIO_COMMAND_NEEDS_SELECTION)
COMMAND(resize, "Resize shape", "s", "resize N W:int+ H:int+", FOLIO_COMMAND_NEEDS_SELECTION)
COMMAND(delete, "Delete shape", "d", "delete N", FOLIO_COMMAND_NEEDS_SELECTION)
static const folio_command_info *const commands[] = {&command_add, &command_move, &command_resize, &command_delete};

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
