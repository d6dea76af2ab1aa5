/// C source shared by the small test plugins, which the tests compile with `cc` against `folio_plugin.h`.
public enum PluginCSource {
    /// The plugin descriptor of a plugin with the one editor `editor` (a `folio_editor` declared before it), and,
    /// when `entry`, the `folio_plugin_entry` that returns it.
    public static func descriptor(id: String, name: String, version: String = "1.0.0", entry: Bool = true) -> String {
        """
        static const folio_editor *const editors[] = { &editor };
        static const folio_plugin_descriptor descriptor = {
            .magic = FOLIO_PLUGIN_MAGIC, .abi_major = FOLIO_PLUGIN_ABI_MAJOR, .abi_minor = FOLIO_PLUGIN_ABI_MINOR,
            .struct_size = sizeof(folio_plugin_descriptor), .id = "\(id)", .name = "\(name)", .version = "\(version)",
            .editors = editors, .editor_count = 1,
        };
        """ + (entry ? "\nconst folio_plugin_descriptor *folio_plugin_entry(void) { return &descriptor; }" : "")
    }

    /// The content type `type` an editor opens (`types`), declared (`declared`) as plain text whose files end in
    /// `.EXT`.
    public static func plainTextType(_ type: String, extension ext: String, description: String) -> String {
        """
        static const char *const types[] = { "\(type)" };
        static const char *const conforms[] = { "public.plain-text" };
        static const char *const extensions[] = { "\(ext)" };
        static const folio_type_declaration declared_type = { sizeof(folio_type_declaration), 0, "\(type)", conforms, 1, extensions, 1, "\(description)" };
        static const folio_type_declaration *const declared[] = { &declared_type };
        """
    }

    /// A well-behaved plugin with one editor `editor` (named "Mini", for `org.test.EDITOR` documents) that knows no
    /// command; `id` and `version` vary the build.
    public static func mini(id: String = "org.test.mini", editor: String = "mini", version: String = "1.0.0") -> String {
        """
        #include "folio_plugin.h"
        #include <stdlib.h>
        #include <string.h>
        struct folio_document { int n; };
        static void m_free(folio_buffer *b) { free(b->data); }
        static folio_status m_set(folio_buffer *b, const char *text) {
            size_t n = strlen(text); b->data = malloc(n + 1); if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
            memcpy(b->data, text, n + 1); b->size = n; b->release = m_free; return FOLIO_STATUS_OK;
        }
        static folio_status m_open(const folio_editor *e, const uint8_t *b, size_t s, folio_document **out, folio_buffer *err) {
            *out = calloc(1, sizeof **out); return *out ? FOLIO_STATUS_OK : FOLIO_STATUS_OUT_OF_MEMORY;
        }
        static folio_status m_apply(const folio_editor *e, const folio_document *d, const char *c, const char *a, const folio_selection *s,
                                    folio_document **out, folio_buffer *desc, folio_buffer *err) {
            m_set(err, "no such command"); return FOLIO_STATUS_UNKNOWN_COMMAND;
        }
        static folio_status m_serialize(const folio_editor *e, const folio_document *d, folio_buffer *out, folio_buffer *err) { return m_set(out, ""); }
        static folio_status m_render(const folio_editor *e, const folio_document *d, uint32_t w, uint32_t h, const folio_selection *s,
                                     folio_buffer *out, folio_buffer *err) { return m_set(out, "m"); }
        static void m_release(const folio_editor *e, folio_document *d) { free(d); }
        static const char *const types[] = { "org.test.\(editor)" };
        static const folio_editor editor = { .struct_size = sizeof(folio_editor), .id = "\(editor)", .name = "Mini", .content_types = types,
            .content_type_count = 1, .open = m_open, .apply = m_apply, .serialize = m_serialize, .render = m_render, .release = m_release };
        \(descriptor(id: id, name: "Mini", version: version))
        """
    }
}
