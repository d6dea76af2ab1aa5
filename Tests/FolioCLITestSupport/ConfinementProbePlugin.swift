import Foundation

/// "probe": a C editor plugin written from `folio_plugin.h` alone that tries, in `apply` and in `render`, what a
/// confined plugin must not be able to do. Its document names the targets, one `KEY=VALUE` line each (the plugin's
/// environment has no HOME): `key` (a private key to read), `home` (a folder to write a file into), `port` (a TCP
/// listener on 127.0.0.1), `touch` (the file `/bin/sh -c 'touch FILE'` would create) and `config` (another document's
/// `.git/config` to append to); `render=probe` makes its render try them too (else it shows its environment).
/// Each attempt's result is `NAME=ok` or `NAME=ERRNO-NAME`, in the call's failure message.
public enum ConfinementProbePlugin {
    public static let source = """
    #include "folio_plugin.h"
    #include <arpa/inet.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <netinet/in.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/socket.h>
    #include <sys/wait.h>
    #include <unistd.h>

    struct folio_document { char text[2048]; };

    static void p_free(folio_buffer *b) { free(b->data); }
    static folio_status p_set(folio_buffer *b, const char *text) {
        size_t n = strlen(text); b->data = malloc(n + 1); if (!b->data) return FOLIO_STATUS_OUT_OF_MEMORY;
        memcpy(b->data, text, n + 1); b->size = n; b->release = p_free; return FOLIO_STATUS_OK;
    }
    /* The value of `key=` in the document, copied into `out` ("" when missing). */
    static const char *p_value(const folio_document *d, const char *key, char *out, size_t size) {
        out[0] = 0;
        size_t k = strlen(key);
        for (const char *line = d->text; line && *line; line = strchr(line, '\\n') ? strchr(line, '\\n') + 1 : NULL) {
            if (strncmp(line, key, k) == 0 && line[k] == '=') {
                const char *end = strchr(line, '\\n');
                size_t n = end ? (size_t)(end - line - k - 1) : strlen(line + k + 1);
                if (n >= size) n = size - 1;
                memcpy(out, line + k + 1, n); out[n] = 0;
                break;
            }
        }
        return out;
    }
    static void p_note(char *report, size_t size, const char *name, int failed) {
        size_t used = strlen(report);
        snprintf(report + used, size - used, "%s%s=%s", used ? " " : "", name, failed ? (errno == EPERM ? "EPERM" : errno == EACCES ? "EACCES" : strerror(errno)) : "ok");
    }
    /* The five attempts, each noted in `report`. */
    static void p_probe(const folio_document *d, char *report, size_t size) {
        char path[1024], file[1100];
        report[0] = 0;
        /* (a) read the private key */
        int fd = open(p_value(d, "key", path, sizeof path), O_RDONLY);
        char secret[64];
        p_note(report, size, "read", fd < 0 || read(fd, secret, sizeof secret) < 0);
        if (fd >= 0) close(fd);
        /* (b) write a file into the home folder */
        snprintf(file, sizeof file, "%s/pwned", p_value(d, "home", path, sizeof path));
        fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        p_note(report, size, "write", fd < 0 || write(fd, "pwned\\n", 6) != 6);
        if (fd >= 0) close(fd);
        /* (c) connect to the test's listener */
        int s = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(p_value(d, "port", path, sizeof path))) };
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        p_note(report, size, "connect", s < 0 || connect(s, (struct sockaddr *)&address, sizeof address) != 0);
        if (s >= 0) close(s);
        /* (d) fork and exec /bin/sh -c 'touch FILE'; refused a process, try the exec itself */
        char command[1100];
        snprintf(command, sizeof command, "touch '%s'", p_value(d, "touch", path, sizeof path));
        pid_t child = fork();
        if (child == 0) { execl("/bin/sh", "sh", "-c", command, (char *)NULL); _exit(127); }
        p_note(report, size, "fork", child < 0);
        if (child > 0) { int status; waitpid(child, &status, 0); }
        else { execl("/bin/sh", "sh", "-c", command, (char *)NULL); p_note(report, size, "exec", 1); }
        /* (e) append to another document's .git/config */
        fd = open(p_value(d, "config", path, sizeof path), O_WRONLY | O_APPEND);
        p_note(report, size, "config", fd < 0 || write(fd, "[core]\\n\\tfsmonitor = touch /tmp/x\\n", 33) != 33);
        if (fd >= 0) close(fd);
    }

    static folio_status p_open(const folio_editor *e, const uint8_t *bytes, size_t size, folio_document **out, folio_buffer *err) {
        folio_document *d = calloc(1, sizeof *d);
        if (!d) return FOLIO_STATUS_OUT_OF_MEMORY;
        memcpy(d->text, bytes, size < sizeof d->text - 1 ? size : sizeof d->text - 1);
        *out = d;
        return FOLIO_STATUS_OK;
    }
    static folio_status p_apply(const folio_editor *e, const folio_document *doc, const char *cmd, const char *args,
                                const folio_selection *sel, folio_document **out, folio_buffer *desc, folio_buffer *err) {
        char report[512];
        p_probe(doc, report, sizeof report);
        if (strcmp(cmd, "probe-crash") == 0) { *(volatile int *)0 = 1; }
        p_set(err, report);
        return FOLIO_STATUS_INVALID_ARGUMENT;
    }
    static folio_status p_serialize(const folio_editor *e, const folio_document *doc, folio_buffer *out, folio_buffer *err) {
        return p_set(out, doc->text);
    }
    static folio_status p_render(const folio_editor *e, const folio_document *doc, uint32_t w, uint32_t h,
                                 const folio_selection *sel, folio_buffer *out, folio_buffer *err) {
        char mode[32], report[512];
        if (strcmp(p_value(doc, "render", mode, sizeof mode), "probe") == 0) {
            p_probe(doc, report, sizeof report);
            p_set(err, report);
            return FOLIO_STATUS_INVALID_DOCUMENT;
        }
        const char *token = getenv("FOLIO_GIT_TOKEN"), *home = getenv("HOME"), *agent = getenv("SSH_AUTH_SOCK");
        snprintf(report, sizeof report, "token=%s home=%s agent=%s lang=%s", token ? token : "(none)", home ? home : "(none)",
                 agent ? agent : "(none)", getenv("LANG") ? getenv("LANG") : "(none)");
        return p_set(out, report);
    }
    static void p_release(const folio_editor *e, folio_document *doc) { free(doc); }

    static const folio_command_info c0 = { sizeof(folio_command_info), 0, "probe", "Probe", "", "probe" };
    static const folio_command_info c1 = { sizeof(folio_command_info), 0, "probe-crash", "Probe and crash", "", "probe-crash" };
    static const folio_command_info *const commands[] = { &c0, &c1 };
    \(PluginCSource.plainTextType("org.test.probe", extension: "probe", description: "A probe"))
    static const folio_editor editor = {
        .struct_size = sizeof(folio_editor), .priority = FOLIO_PRIORITY_DEFAULT, .id = "probe", .name = "Probe",
        .content_types = types, .content_type_count = 1, .declared_types = declared, .declared_type_count = 1,
        .commands = commands, .command_count = 2,
        .open = p_open, .apply = p_apply, .serialize = p_serialize, .render = p_render, .release = p_release,
    };
    \(PluginCSource.descriptor(id: "test.probe", name: "Probe"))
    """
}
