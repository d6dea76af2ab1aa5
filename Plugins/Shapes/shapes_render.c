/* The Shapes view: a summary line, the numbered list of shapes (the items the cursor moves over, so that the highlighted
 * row is the shape commands act on), then the canvas under a rule that says where it is and what does not fit.
 *
 * The canvas pans with the cursor: it starts at (0, 0) and moves just enough to show the shape under the cursor (or the
 * selected range). The user pans it further with shift+arrows: Folio passes how far (ABI 1.2's `pan_x`, `pan_y` in the
 * selection) and sets it back to 0 when the cursor moves, so the canvas follows the cursor again. A host without the pan
 * passes a shorter selection, and the canvas only follows the cursor. A shape cut by an edge of the canvas is marked there ('<' '>' '^' 'v' along the edge it crosses) and
 * the rule counts the shapes cut and those out of sight, so nothing is ever cut without a sign of it. Each shape is drawn
 * with its number and, when the shape is wide enough, its colour's name ("1 red"): the view is plain text, so a
 * colour's name is its swatch. */
#include "shapes_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANVAS 2000u
/* The farthest a pan goes either way: past every coordinate a shape can have (shapes.c's limit is 1,000,000), and far
 * from overflowing when added to an origin. */
#define PAN_LIMIT 4000000LL

/* The part of the plane the canvas shows: columns ox..ox+width-1, rows oy..oy+height-1. */
typedef struct viewport {
    long long ox, oy, width, height;
} viewport;

static void plot(char *canvas, const viewport *v, long long x, long long y, char c) {
    if (x < 0 || y < 0 || x >= v->width || y >= v->height) return;
    canvas[y * v->width + x] = c;
}

/* The outline character of `s` at (x, y) (plane coordinates), 0 where it has none. */
static char outline(const shape *s, long long x, long long y) {
    long long x0 = s->x, y0 = s->y, x1 = s->x + s->w - 1, y1 = s->y + s->h - 1;
    if (s->kind == KIND_RECT) {
        int top = y == y0 || y == y1, side = x == x0 || x == x1;
        return top && side ? '+' : top ? '-' : side ? '|' : 0;
    }
    /* Inside when ((x - cx) / rx)^2 + ((y - cy) / ry)^2 <= 1; border when a neighbour is outside. */
    double rx = (double)s->w / 2.0, ry = (double)s->h / 2.0, cx = (double)x0 + rx, cy = (double)y0 + ry;
#define INSIDE(px, py) ((((px) + 0.5 - cx) / rx) * (((px) + 0.5 - cx) / rx) + (((py) + 0.5 - cy) / ry) * (((py) + 0.5 - cy) / ry) <= 1.0)
    int border = INSIDE((double)x, (double)y) && (!INSIDE((double)x - 1, (double)y) || !INSIDE((double)x + 1, (double)y) ||
                                                 !INSIDE((double)x, (double)y - 1) || !INSIDE((double)x, (double)y + 1));
#undef INSIDE
    return border ? 'o' : 0;
}

/* Draws `s` (the `number`th shape) into the canvas: only the part of its box inside the viewport is visited. */
static void draw(char *canvas, const viewport *v, const shape *s, size_t number, int highlighted) {
    long long x0 = s->x, y0 = s->y, x1 = s->x + s->w - 1, y1 = s->y + s->h - 1;
    long long vx1 = v->ox + v->width - 1, vy1 = v->oy + v->height - 1;
    if (s->w <= 0 || s->h <= 0 || x1 < v->ox || y1 < v->oy || x0 > vx1 || y0 > vy1) return;
    long long cx0 = x0 < v->ox ? v->ox : x0, cy0 = y0 < v->oy ? v->oy : y0, cx1 = x1 > vx1 ? vx1 : x1, cy1 = y1 > vy1 ? vy1 : y1;
    for (long long y = cy0; y <= cy1; y++)
        for (long long x = cx0; x <= cx1; x++) {
            char c = outline(s, x, y);
            if (c) plot(canvas, v, x - v->ox, y - v->oy, highlighted ? '*' : c);
        }
    /* The label inside the shape (a rectangle's top-left corner, an ellipse's middle): "1 red" when it fits inside,
     * else the number alone. */
    char label[48];
    long long room = s->w > 2 ? s->w - 2 : 1;
    int n = snprintf(label, sizeof label, "%zu %s", number, s->color);
    if (n < 0 || n > room) n = snprintf(label, sizeof label, "%zu", number);
    if (n < 0 || n > room) return;
    long long lx = x0 + (s->w > 2 ? 1 : 0) - v->ox, ly = y0 + (s->h > 2 ? 1 : 0) - v->oy;
    if (s->kind == KIND_ELLIPSE && s->w > 2) { lx = x0 + (s->w - n) / 2 - v->ox; ly = y0 + s->h / 2 - v->oy; }  /* its widest row */
    for (int i = 0; i < n; i++) plot(canvas, v, lx + i, ly, label[i]);
}

/* Marks where `s` leaves the viewport: '>' down the right edge for the rows it spans beyond it, and so on. Returns 1
 * when the shape is cut (partly shown), 0 when it is whole or out of sight. */
static int mark_cut(char *canvas, const viewport *v, const shape *s) {
    long long x0 = s->x, y0 = s->y, x1 = s->x + s->w - 1, y1 = s->y + s->h - 1;
    long long vx1 = v->ox + v->width - 1, vy1 = v->oy + v->height - 1;
    if (s->w <= 0 || s->h <= 0 || x1 < v->ox || y1 < v->oy || x0 > vx1 || y0 > vy1) return 0;
    long long cx0 = x0 < v->ox ? v->ox : x0, cy0 = y0 < v->oy ? v->oy : y0, cx1 = x1 > vx1 ? vx1 : x1, cy1 = y1 > vy1 ? vy1 : y1;
    int cut = 0;
    if (x1 > vx1) { cut = 1; for (long long y = cy0; y <= cy1; y++) plot(canvas, v, v->width - 1, y - v->oy, '>'); }
    if (x0 < v->ox) { cut = 1; for (long long y = cy0; y <= cy1; y++) plot(canvas, v, 0, y - v->oy, '<'); }
    if (y1 > vy1) { cut = 1; for (long long x = cx0; x <= cx1; x++) plot(canvas, v, x - v->ox, v->height - 1, 'v'); }
    if (y0 < v->oy) { cut = 1; for (long long x = cx0; x <= cx1; x++) plot(canvas, v, x - v->ox, 0, '^'); }
    return cut;
}

/* Pans one axis from 0 just enough to show low..high (the focus), its start first when it is larger than the view. */
static long long pan_to(long long low, long long high, long long size) {
    long long origin = 0;
    if (high >= origin + size) origin = high - size + 1;
    if (low < origin) origin = low;
    return origin;
}

/* How far the user panned, kept within PAN_LIMIT. */
static long long pan_limit(long long pan) {
    return pan < -PAN_LIMIT ? -PAN_LIMIT : pan > PAN_LIMIT ? PAN_LIMIT : pan;
}

/* The viewport of `rows` x `width` cells that shows shapes low..high (1-based; 0 for none), moved by the user's pan. */
static viewport viewport_for(const folio_document *doc, long long low, long long high, long long width, long long rows, long long pan_x,
                             long long pan_y) {
    viewport v = {pan_limit(pan_x), pan_limit(pan_y), width, rows};
    if (low < 1 || high > (long long)doc->count) return v;
    long long fx0 = doc->items[low - 1].x, fy0 = doc->items[low - 1].y, fx1 = fx0, fy1 = fy0;
    for (long long i = low - 1; i < high; i++) {
        const shape *s = &doc->items[i];
        long long x1 = s->x + (s->w > 0 ? s->w - 1 : 0), y1 = s->y + (s->h > 0 ? s->h - 1 : 0);
        if (s->x < fx0) fx0 = s->x;
        if (s->y < fy0) fy0 = s->y;
        if (x1 > fx1) fx1 = x1;
        if (y1 > fy1) fy1 = y1;
    }
    v.ox = pan_to(fx0, fx1, width) + pan_limit(pan_x);
    v.oy = pan_to(fy0, fy1, rows) + pan_limit(pan_y);
    return v;
}

/* The rule over the canvas: "-- canvas at (0, 0), 1 cut, 2 out of sight; shift+arrows pan ---", fitted to `width`
 * cells (the keys only when the host pans: `pans`). */
static void add_rule(text *t, const viewport *v, long long cut, long long hidden, long long width, int pans) {
    /* The longest of these that leaves the rule at least one '-' at the end; none when even the shortest does not. */
    char head[5][200];
    snprintf(head[0], sizeof head[0], "-- canvas at (%lld, %lld), %lld cut, %lld out of sight", v->ox, v->oy, cut, hidden);
    if (cut == 0 || hidden == 0)
        snprintf(head[0], sizeof head[0], "-- canvas at (%lld, %lld)%s%lld %s", v->ox, v->oy, cut + hidden > 0 ? ", " : "",
                 cut + hidden, cut > 0 ? "cut" : "out of sight");
    if (cut + hidden == 0) snprintf(head[0], sizeof head[0], "-- canvas at (%lld, %lld)", v->ox, v->oy);
    snprintf(head[1], sizeof head[1], "-- (%lld, %lld)%s", v->ox, v->oy, cut + hidden > 0 ? " more" : "");
    snprintf(head[2], sizeof head[2], "-- (%lld, %lld)", v->ox, v->oy);
    head[3][0] = 0;
    int n = 0, choice = 0, last = 3;
    if (pans) {
        /* The keys first, then the same choices as without them. */
        for (int i = 4; i > 0; i--) memcpy(head[i], head[i - 1], sizeof head[i]);
        snprintf(head[0], sizeof head[0], "%.160s; shift+arrows pan", head[1]);
        last = 4;
    }
    while (choice < last && (long long)strlen(head[choice]) > width - 2) choice++;
    n = (int)strlen(head[choice]);
    if (n > 0) { text_add(t, head[choice], (size_t)n); text_add(t, " ", 1); n++; }
    for (long long i = n; i < width; i++) text_add(t, "-", 1);
}

/* The canvas rows: shapes drawn, cuts marked, no row reading as a list row. */
static folio_status add_canvas(text *t, const folio_document *doc, long long low, long long high, long long width, long long rows,
                               const folio_selection *selection) {
    int pans = selection != NULL && FOLIO_SELECTION_HAS(selection, pan_y);
    viewport v = viewport_for(doc, low, high, width, rows - 1, pans ? selection->pan_x : 0, pans ? selection->pan_y : 0);
    char *canvas = malloc((size_t)(width * v.height));
    if (canvas == NULL) return FOLIO_STATUS_OUT_OF_MEMORY;
    memset(canvas, ' ', (size_t)(width * v.height));
    for (size_t i = 0; i < doc->count; i++) draw(canvas, &v, &doc->items[i], i + 1, (long long)i + 1 >= low && (long long)i + 1 <= high && low >= 1);
    long long cut = 0, hidden = 0;
    for (size_t i = 0; i < doc->count; i++) {
        const shape *s = &doc->items[i];
        if (mark_cut(canvas, &v, s)) cut++;
        else if (s->w > 0 && s->h > 0 && (s->x + s->w <= v.ox || s->y + s->h <= v.oy || s->x >= v.ox + width || s->y >= v.oy + v.height)) hidden++;
    }
    text_add(t, "\n", 1);
    add_rule(t, &v, cut, hidden, width, pans);
    for (long long y = 0; y < v.height; y++) {
        char *row = canvas + y * width;
        long long end = width;
        while (end > 0 && row[end - 1] == ' ') end--;
        /* Folio reads a line that starts, after spaces and '>', with a number and a space as an item: a drawing row
         * never does, its first cell becomes '|' instead. */
        long long lead = 0;
        while (lead < end && (row[lead] == ' ' || row[lead] == '>')) lead++;
        if (lead < end && row[lead] >= '0' && row[lead] <= '9') row[0] = '|';
        text_add(t, "\n", 1);
        text_add(t, row, (size_t)end);
    }
    free(canvas);
    return FOLIO_STATUS_OK;
}

/* One list row or the summary, cut to `width` bytes (every byte is one cell: kinds, numbers and colours are ASCII). */
/* A view line cut to `width` cells (folio_text.h: never inside a character). */
static void add_line(text *t, const char *line, long long width, int newline) {
    if (newline) text_add(t, "\n", 1);
    text_add_fit(t, line, width);
}

folio_status shapes_render(const folio_editor *editor, const folio_document *doc, uint32_t width, uint32_t height,
                           const folio_selection *selection, folio_buffer *out, folio_buffer *error) {
    (void)editor;
    if (doc == NULL) return folio_fail(error, FOLIO_STATUS_INTERNAL, "no document");
    long long w = width > MAX_CANVAS ? MAX_CANVAS : width, h = height > MAX_CANVAS ? MAX_CANVAS : height;
    long long cursor = 0, anchor = 0, scroll = 0, count = (long long)doc->count;
    if (selection != NULL && FOLIO_SELECTION_HAS(selection, scroll)) {
        cursor = selection->cursor; anchor = selection->anchor; scroll = selection->scroll;
    }
    long long low = cursor, high = cursor;
    if (anchor >= 1 && anchor < low) low = anchor;
    if (anchor > high) high = anchor;
    if (high > count) low = high = 0;
    text t = {0};
    if (w < 1 || h < 1) return text_finish(&t, out, error);
    char line[256];
    if (cursor >= 1 && cursor <= count) {
        const shape *s = &doc->items[cursor - 1];
        snprintf(line, sizeof line, "shape %lld of %zu: %s %s at (%lld, %lld), %lld x %lld", cursor, doc->count, s->color, kind_name(s->kind),
                 s->x, s->y, s->w, s->h);
    } else {
        snprintf(line, sizeof line, "shapes: %zu", doc->count);
    }
    add_line(&t, line, w, 0);
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
        /* The colour first, so that it shows however narrow the view: "1 red rect at (0, 0), 6 x 3". */
        snprintf(line, sizeof line, "%c%*lld %s %s at (%lld, %lld), %lld x %lld", cursor == i + 1 ? '>' : ' ', digits, i + 1, s->color,
                 kind_name(s->kind), s->x, s->y, s->w, s->h);
        add_line(&t, line, w, 1);
    }
    /* The canvas needs its rule and at least one row. */
    if (room - listRows >= 2 && add_canvas(&t, doc, low, high, w, room - listRows, selection) != FOLIO_STATUS_OK) {
        free(t.data);
        return folio_fail(error, FOLIO_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    return text_finish(&t, out, error);
}
