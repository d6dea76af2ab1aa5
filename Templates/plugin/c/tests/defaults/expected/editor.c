/* MyEditor: a Folio editor for org.example.my-editor documents, a list of lines (one item per line).
 * Commands: `add TEXT` appends a line, `remove N` removes line N (the one under the cursor in the editor).
 * Items (folio.items/1): each line is an item, so Folio can list the history of one line and bring one back.
 * Folio's plugin guide, docs/PLUGINS.md, explains every table and rule used here. */
#include <folio_plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The document ---------------------------------------------------------------------------------------- */

struct folio_document {
    char **lines;
    size_t count;
};

static void document_free(folio_document *document) {
    size_t i;
    if (document == NULL) return;
    for (i = 0; i < document->count; i++) free(document->lines[i]);
    free(document->lines);
    free(document);
}

static char *copy_text(const char *text, size_t size) {
    char *copy = malloc(size + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, text, size);
    copy[size] = 0;
    return copy;
}

/* A new document holding copies of `lines` with `extra` appended (when not NULL) and line `skip` left out
 * (when below `count`). NULL when out of memory. */
static folio_document *document_make(char *const *lines, size_t count, const char *extra, size_t skip) {
    size_t i;
    folio_document *document = calloc(1, sizeof *document);
    if (document == NULL) return NULL;
    document->lines = calloc(count + 1, sizeof *document->lines);
    if (document->lines == NULL) { free(document); return NULL; }
    for (i = 0; i < count; i++) {
        if (i == skip) continue;
        if ((document->lines[document->count] = copy_text(lines[i], strlen(lines[i]))) == NULL) goto fail;
        document->count++;
    }
    if (extra != NULL) {
        if ((document->lines[document->count] = copy_text(extra, strlen(extra))) == NULL) goto fail;
        document->count++;
    }
    return document;
fail:
    document_free(document);
    return NULL;
}

/* ---- Arguments: a JSON array of strings ------------------------------------------------------------------- */

#define MAX_ARGUMENTS 8

typedef struct arguments {
    char *values[MAX_ARGUMENTS];
    size_t count;
} arguments;

static void arguments_free(arguments *args) {
    size_t i;
    for (i = 0; i < args->count; i++) free(args->values[i]);
    args->count = 0;
}

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static int hex4(const char *p, unsigned *out) {
    unsigned value = 0;
    int i;
    for (i = 0; i < 4; i++) {
        char c = p[i];
        value <<= 4;
        if (c >= '0' && c <= '9') value |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') value |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') value |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = value;
    return 1;
}

static size_t put_utf8(char *out, unsigned code) {
    if (code < 0x80) { out[0] = (char)code; return 1; }
    if (code < 0x800) { out[0] = (char)(0xC0 | (code >> 6)); out[1] = (char)(0x80 | (code & 0x3F)); return 2; }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | (code >> 12)); out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code >> 18)); out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code >> 6) & 0x3F)); out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/* Reads one JSON string at `p` (after its opening quote) into a new buffer; returns the position after the closing
 * quote, or NULL when malformed or out of memory. */
static const char *read_string(const char *p, char **out) {
    size_t capacity = strlen(p) + 1, size = 0;
    char *text = malloc(capacity);
    if (text == NULL) return NULL;
    while (*p != '"') {
        unsigned code;
        if (*p == 0 || (unsigned char)*p < 0x20) goto fail;
        if (*p != '\\') { text[size++] = *p++; continue; }
        p++;
        switch (*p++) {
        case '"': text[size++] = '"'; break;
        case '\\': text[size++] = '\\'; break;
        case '/': text[size++] = '/'; break;
        case 'b': text[size++] = '\b'; break;
        case 'f': text[size++] = '\f'; break;
        case 'n': text[size++] = '\n'; break;
        case 'r': text[size++] = '\r'; break;
        case 't': text[size++] = '\t'; break;
        case 'u':
            if (!hex4(p, &code)) goto fail;
            p += 4;
            if (code >= 0xD800 && code < 0xDC00) { /* a surrogate pair */
                unsigned low;
                if (p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, &low) || low < 0xDC00 || low > 0xDFFF) goto fail;
                p += 6;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else if (code >= 0xDC00 && code <= 0xDFFF) {
                goto fail;
            }
            if (code == 0) goto fail; /* no NUL inside a C string */
            size += put_utf8(text + size, code);
            break;
        default: goto fail;
        }
    }
    text[size] = 0;
    *out = text;
    return p + 1;
fail:
    free(text);
    return NULL;
}

/* Parses `json`; 0 when it is not an array of at most MAX_ARGUMENTS strings. */
static int arguments_read(const char *json, arguments *args) {
    const char *p = skip_space(json);
    args->count = 0;
    if (*p++ != '[') return 0;
    p = skip_space(p);
    if (*p == ']') return *skip_space(p + 1) == 0;
    for (;;) {
        char *value = NULL;
        if (*p++ != '"' || args->count == MAX_ARGUMENTS || (p = read_string(p, &value)) == NULL) break;
        args->values[args->count++] = value;
        p = skip_space(p);
        if (*p == ']') {
            if (*skip_space(p + 1) == 0) return 1;
            break;
        }
        if (*p++ != ',') break;
        p = skip_space(p);
    }
    arguments_free(args);
    return 0;
}

/* ---- The editor's operations ------------------------------------------------------------------------------ */

/* Whether `bytes` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF): Folio shows what
 * a view returns on a terminal, so a document that is not text is refused when it is opened. */
static int utf8_valid(const uint8_t *bytes, size_t size) {
    size_t i = 0, extra, k;
    while (i < size) {
        uint8_t b = bytes[i];
        uint32_t code;
        if (b < 0x80) { i++; continue; }
        extra = (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : 0;
        if (extra == 0 || extra >= size - i) return 0;
        code = b & (0x7Fu >> (extra + 1));
        for (k = 1; k <= extra; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80) return 0;
            code = (code << 6) | (bytes[i + k] & 0x3Fu);
        }
        if ((extra == 1 && code < 0x80) || (extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000)) return 0;
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
        i += extra + 1;
    }
    return 1;
}

static folio_status op_open(const folio_editor *editor, const uint8_t *bytes, size_t size, folio_document **out,
                            folio_buffer *error) {
    folio_document *document = calloc(1, sizeof *document);
    size_t start = 0, i, lines = 0;
    (void)editor;
    if (document == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    if (!utf8_valid(bytes, size)) { free(document); return folio_fail(error, FOLIO_STATUS_INVALID_DOCUMENT, "the file is not UTF-8 text"); }
    for (i = 0; i < size; i++) {
        if (bytes[i] == 0) { document_free(document); return folio_fail(error, FOLIO_STATUS_INVALID_DOCUMENT, "the file holds a NUL byte"); }
        if (bytes[i] == '\n') lines++;
    }
    document->lines = calloc(lines + 2, sizeof *document->lines);
    if (document->lines == NULL) { free(document); return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); }
    for (i = 0; i <= size; i++) {
        if (i < size && bytes[i] != '\n') continue;
        if (i > start) {
            if ((document->lines[document->count] = copy_text((const char *)bytes + start, i - start)) == NULL) {
                document_free(document);
                return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
            }
            document->count++;
        }
        start = i + 1;
    }
    *out = document;
    return FOLIO_STATUS_OK;
}

static folio_status describe(folio_buffer *out, const char *verb, const char *line) {
    char text[80];
    int shown = strlen(line) > 40 ? 40 : (int)strlen(line);
    while (shown > 0 && ((unsigned char)line[shown] & 0xC0) == 0x80) shown--; /* cut between whole UTF-8 characters */
    snprintf(text, sizeof text, "%s '%.*s%s'", verb, shown, line, strlen(line) > (size_t)shown ? "..." : "");
    return folio_buffer_set(out, text, strlen(text));
}

static folio_status op_apply(const folio_editor *editor, const folio_document *document, const char *command,
                             const char *arguments_json, const folio_selection *selection, folio_document **out,
                             folio_buffer *out_description, folio_buffer *error) {
    arguments args;
    folio_document *changed = NULL;
    folio_status status = FOLIO_STATUS_OK;
    (void)editor;
    (void)selection; /* `remove N` gets N as its argument: Folio fills it from the cursor */
    if (!arguments_read(arguments_json, &args))
        return folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "the arguments must be a list of at most 8 texts");
    if (strcmp(command, "add") == 0) {
        if (args.count != 1) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "expected 1 argument (usage: add TEXT)");
        else if (args.values[0][0] == 0 || strchr(args.values[0], '\n') != NULL)
            status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "TEXT must be one non-empty line (usage: add TEXT)");
        else if ((changed = document_make(document->lines, document->count, args.values[0], (size_t)-1)) == NULL)
            status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else status = describe(out_description, "added", args.values[0]);
    } else if (strcmp(command, "remove") == 0) {
        char *end = NULL;
        long n = args.count == 1 ? strtol(args.values[0], &end, 10) : 0;
        if (args.count != 1) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "expected 1 argument (usage: remove N)");
        else if (end == args.values[0] || *end != 0) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "N must be a whole number (usage: remove N)");
        else if (n < 1 || (unsigned long)n > document->count) status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "N is not the number of a line");
        else if ((changed = document_make(document->lines, document->count, NULL, (size_t)(n - 1))) == NULL)
            status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else status = describe(out_description, "removed", document->lines[n - 1]);
    } else {
        status = folio_fail(error, FOLIO_STATUS_UNKNOWN_COMMAND, "unknown command");
    }
    arguments_free(&args);
    if (status != FOLIO_STATUS_OK) {
        document_free(changed);
        return status;
    }
    *out = changed;
    return FOLIO_STATUS_OK;
}

static folio_status op_serialize(const folio_editor *editor, const folio_document *document, folio_buffer *out,
                                 folio_buffer *error) {
    size_t i, size = 0, at = 0;
    char *text;
    folio_status status;
    (void)editor;
    for (i = 0; i < document->count; i++) size += strlen(document->lines[i]) + 1;
    if ((text = malloc(size + 1)) == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    for (i = 0; i < document->count; i++) {
        size_t length = strlen(document->lines[i]);
        memcpy(text + at, document->lines[i], length);
        at += length;
        text[at++] = '\n';
    }
    status = folio_buffer_set(out, text, size);
    free(text);
    return status == FOLIO_STATUS_OK ? status : folio_fail(error, status, "out of memory");
}

/* A header line, then one line per item: "> 2 text" for the cursor's item, "  2 text" for the others (Folio finds
 * items by their numbers). Lines are cut to `width` bytes; a real editor counts cells. */
static folio_status op_render(const folio_editor *editor, const folio_document *document, uint32_t width,
                              uint32_t height, const folio_selection *selection, folio_buffer *out,
                              folio_buffer *error) {
    size_t first = 0, row, size = 0, capacity;
    int64_t cursor = selection != NULL ? selection->cursor : 0;
    char *text, line[512];
    folio_status status;
    (void)editor;
    if (selection != NULL && selection->scroll > 0) first = (size_t)selection->scroll;
    if (cursor > 0 && height > 1 && (size_t)cursor > first + height - 1) first = (size_t)cursor - (height - 1);
    if (first > document->count) first = document->count;
    /* Each row holds at most sizeof line - 1 bytes and a newline; there are at most count + 1 rows. */
    capacity = (height < document->count + 1 ? height : document->count + 1) * sizeof line + 1;
    if ((text = malloc(capacity)) == NULL) return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    for (row = 0; row < height; row++) {
        size_t item = first + row, length;
        if (row == 0) snprintf(line, sizeof line, "MyEditor (%lu lines)", (unsigned long)document->count);
        else if (item - 1 < document->count)
            snprintf(line, sizeof line, "%s%lu %s", (int64_t)item == cursor ? "> " : "  ", (unsigned long)item, document->lines[item - 1]);
        else break;
        length = strlen(line);
        if (length > width) length = width;
        while (length > 0 && length < strlen(line) && ((unsigned char)line[length] & 0xC0) == 0x80) length--; /* whole UTF-8 characters */
        if (row > 0) text[size++] = '\n';
        memcpy(text + size, line, length);
        size += length;
    }
    status = folio_buffer_set(out, text, size);
    free(text);
    return status == FOLIO_STATUS_OK ? status : folio_fail(error, status, "out of memory");
}

static void op_release(const folio_editor *editor, folio_document *document) {
    (void)editor;
    document_free(document);
}

/* ---- Items (folio.items/1): the history of one line, and bringing one back --------------------------------- */

/* A line's fingerprint: 64-bit FNV-1a of its text. */
static unsigned long long fingerprint(const char *text) {
    unsigned long long hash = 0xcbf29ce484222325ULL;
    for (; *text; text++) hash = (hash ^ (unsigned char)*text) * 0x100000001b3ULL;
    return hash;
}

/* For each line of `now`, the index of the same line in `before` (-1 when new): equal text, matched in order, each
 * line looking at most MATCH_WINDOW lines past the last match (so a huge document costs little). */
#define MATCH_WINDOW 1000
static void match_lines(const folio_document *before, const folio_document *now, long *previous) {
    size_t i, next = 0;
    for (i = 0; i < now->count; i++) {
        size_t j, end = next + MATCH_WINDOW < before->count ? next + MATCH_WINDOW : before->count;
        previous[i] = -1;
        for (j = next; j < end; j++) {
            if (strcmp(before->lines[j], now->lines[i]) == 0) { previous[i] = (long)j; next = j + 1; break; }
        }
    }
}

/* One line per item: "N<TAB>PREVIOUS<TAB>FINGERPRINT<TAB>SUMMARY" (the summary is the line, cut to 60 bytes). */
static folio_status items_list(const folio_editor *editor, const uint8_t *previous, size_t previous_size, const uint8_t *bytes,
                               size_t size, folio_buffer *out, folio_buffer *error) {
    folio_document *now = NULL, *before = NULL;
    long *matches = NULL;
    char *text = NULL, line[160];
    size_t i, used = 0, capacity;
    folio_status status = op_open(editor, bytes, size, &now, error);
    if (status != FOLIO_STATUS_OK) return status;
    if (previous != NULL && (status = op_open(editor, previous, previous_size, &before, error)) != FOLIO_STATUS_OK) {
        document_free(now);
        return status;
    }
    capacity = now->count * sizeof line + 1;
    matches = calloc(now->count + 1, sizeof *matches);
    text = malloc(capacity);
    if (matches == NULL || text == NULL) status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    if (status == FOLIO_STATUS_OK) {
        if (before != NULL) match_lines(before, now, matches);
        for (i = 0; i < now->count; i++) {
            char previous_key[24] = "", summary[64];
            int length, k, shown = strlen(now->lines[i]) > 60 ? 60 : (int)strlen(now->lines[i]);
            while (shown > 0 && ((unsigned char)now->lines[i][shown] & 0xC0) == 0x80) shown--; /* whole UTF-8 characters */
            for (k = 0; k < shown; k++) summary[k] = now->lines[i][k] == '\t' ? ' ' : now->lines[i][k]; /* a tab would end the field */
            summary[shown] = 0;
            if (before != NULL && matches[i] >= 0) snprintf(previous_key, sizeof previous_key, "%ld", matches[i] + 1);
            length = snprintf(line, sizeof line, "%lu\t%s\t%016llx\t%s\n", (unsigned long)(i + 1), previous_key, fingerprint(now->lines[i]), summary);
            if (length < 0) length = 0;
            if ((size_t)length >= sizeof line) length = sizeof line - 1;
            memcpy(text + used, line, (size_t)length);
            used += (size_t)length;
        }
        status = folio_buffer_set(out, text, used);
        if (status != FOLIO_STATUS_OK) status = folio_fail(error, status, "out of memory");
    }
    free(text);
    free(matches);
    document_free(before);
    document_free(now);
    return status;
}

/* A line number from 1 to `count`, as an index; -1 otherwise. */
static long line_index(const char *key, size_t count) {
    char *end = NULL;
    long n;
    if (key == NULL || *key < '1' || *key > '9') return -1;
    n = strtol(key, &end, 10);
    return *end == 0 && n >= 1 && (unsigned long)n <= count ? n - 1 : -1;
}

/* `into` with lines of `from` put back: a line still there (into_keys[k] not "") is replaced, one gone is inserted at
 * its old number or at the end. */
static folio_status items_take(const folio_editor *editor, const uint8_t *from_bytes, size_t from_size, const uint8_t *into_bytes,
                               size_t into_size, const char *const *from_keys, const char *const *into_keys, size_t count,
                               folio_buffer *out, folio_buffer *out_description, folio_buffer *error) {
    folio_document *from = NULL, *into = NULL, *result = NULL;
    size_t k, i;
    char description[64];
    folio_status status = op_open(editor, from_bytes, from_size, &from, error);
    if (status != FOLIO_STATUS_OK) return status;
    if ((status = op_open(editor, into_bytes, into_size, &into, error)) != FOLIO_STATUS_OK) { document_free(from); return status; }
    for (k = 0; k < count && status == FOLIO_STATUS_OK; k++) {
        if (line_index(from_keys[k], from->count) < 0 || (into_keys[k][0] != 0 && line_index(into_keys[k], into->count) < 0))
            status = folio_fail(error, FOLIO_STATUS_INVALID_ARGUMENT, "no such line");
    }
    if (status == FOLIO_STATUS_OK && (result = document_make(into->lines, into->count, NULL, (size_t)-1)) != NULL) {
        char **grown = realloc(result->lines, (result->count + count + 1) * sizeof *grown);
        if (grown == NULL) status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        else result->lines = grown;
        for (k = 0; k < count && status == FOLIO_STATUS_OK; k++) { /* lines still there: replaced where they are */
            long source = line_index(from_keys[k], from->count), target = line_index(into_keys[k], into->count);
            char *copy;
            if (into_keys[k][0] == 0) continue;
            if ((copy = copy_text(from->lines[source], strlen(from->lines[source]))) == NULL) { status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory"); break; }
            free(result->lines[target]);
            result->lines[target] = copy;
        }
        for (i = 0; i < from->count && status == FOLIO_STATUS_OK; i++) { /* lines gone: inserted in their old order */
            for (k = 0; k < count; k++) {
                size_t at;
                if (into_keys[k][0] != 0 || line_index(from_keys[k], from->count) != (long)i) continue;
                at = i < result->count ? i : result->count;
                memmove(result->lines + at + 1, result->lines + at, (result->count - at) * sizeof *result->lines);
                if ((result->lines[at] = copy_text(from->lines[i], strlen(from->lines[i]))) == NULL) {
                    memmove(result->lines + at, result->lines + at + 1, (result->count - at) * sizeof *result->lines);
                    status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
                    break;
                }
                result->count++;
                break;
            }
        }
    } else if (status == FOLIO_STATUS_OK) {
        status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (status == FOLIO_STATUS_OK) status = op_serialize(editor, result, out, error);
    if (status == FOLIO_STATUS_OK) {
        if (count == 1) snprintf(description, sizeof description, "brought back line %.20s", from_keys[0]);
        else snprintf(description, sizeof description, "brought back %lu lines", (unsigned long)count);
        if (folio_buffer_set(out_description, description, strlen(description)) != FOLIO_STATUS_OK) {
            folio_buffer_release(out);
            status = folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
        }
    }
    document_free(result);
    document_free(into);
    document_free(from);
    return status;
}

static const folio_items_v1 items_table = {sizeof(folio_items_v1), 0, items_list, items_take};

/* Optional capabilities by versioned id: this editor answers folio.items/1 only. */
static const void *op_extension(const folio_editor *editor, const char *id) {
    (void)editor;
    return id != NULL && strcmp(id, FOLIO_EXTENSION_ITEMS) == 0 ? &items_table : NULL;
}

/* ---- The description: static tables, each struct carrying its size ------------------------------------- */

static const folio_command_info add_command = {
    sizeof(folio_command_info), 0, "add", "Add line", "a", "add TEXT",
};
static const folio_command_info remove_command = {
    sizeof(folio_command_info), FOLIO_COMMAND_NEEDS_SELECTION, "remove", "Remove line", "d", "remove N",
};
static const folio_command_info *const commands[] = {&add_command, &remove_command};

static const char *const conforms_to[] = {"public.plain-text"};
static const folio_type_declaration document_type = {
    sizeof(folio_type_declaration), 0, "org.example.my-editor", conforms_to, 1, NULL, 0, "A MyEditor document",
};
static const folio_type_declaration *const declared_types[] = {&document_type};
static const char *const content_types[] = {"org.example.my-editor"};

static const folio_editor editor_table = {
    sizeof(folio_editor), FOLIO_PRIORITY_DEFAULT, "my-editor", "MyEditor",
    content_types, 1, declared_types, 1, commands, 2, NULL,
    op_open, op_apply, op_serialize, op_render, op_release, op_extension,
};
static const folio_editor *const editors[] = {&editor_table};

static const folio_plugin_descriptor descriptor = {
    FOLIO_PLUGIN_MAGIC, FOLIO_PLUGIN_ABI_MAJOR, FOLIO_PLUGIN_ABI_MINOR, sizeof(folio_plugin_descriptor), 0,
    "org.example.plugins.my-editor", "MyEditor", "0.1.0", editors, 1,
};

/* The one exported symbol: returns the static descriptor and does nothing else. */
__attribute__((visibility("default"))) const folio_plugin_descriptor *folio_plugin_entry(void) {
    return &descriptor;
}
