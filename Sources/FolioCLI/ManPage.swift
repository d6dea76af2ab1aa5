import FoundationEssentials
import FolioBasics
import Glibc

/// folio(1) in roff, made from the same command table as `folio --help` (scripts/install writes it to
/// share/man/man1/folio.1 with `folio __manpage`).
enum ManPage {
    /// The whole page.
    static func render(_ commands: [Command]) -> String {
        var page = """
        .TH FOLIO 1 "" "folio \(FolioVersion.current)" "User Commands"
        .SH NAME
        folio \\- documents and projects from templates, edited with plug\\-in editors, every change kept as git history
        .SH SYNOPSIS
        .B folio
        [\\fICOMMAND\\fR] [\\fIARGS\\fR...]
        .br
        .B folio \\-\\-version
        .br
        .B folio \\-\\-help
        .SH DESCRIPTION
        A Folio document is a folder that is a git repository: every change is one commit, undo and redo are new
        commits, and plain git reads everything Folio writes. With no command on a terminal, \\fBfolio\\fR opens the
        launch screen. Every command takes \\fB\\-\\-json\\fR for a machine\\-readable answer and \\fB\\-\\-help\\fR for
        its usage; errors are one line on standard error with a non\\-zero exit status.
        .SH COMMANDS

        """
        for command in commands {
            page += ".TP\n.B folio \(escape(command.usage))\n\(escape(command.summary))\n" + options(command)
        }
        page += """
        .SH CONTINUOUS SYNC
        A document with continuous sync on (after \\fBfolio clone\\fR or \\fBfolio share\\fR, or
        \\fBfolio sync\\fR \\fIPATH\\fR \\fB\\-\\-continuous on\\fR) is pushed shortly after each change and
        pulled when its remote moves, while \\fBfolio sync \\-\\-watch\\fR or an editor window runs. Offline,
        changes wait as commits and retries back off. \\fBscripts/install\\fR installs the systemd user unit
        \\fIPREFIX/lib/systemd/user/folio\\-sync.service\\fR, which runs \\fBfolio sync \\-\\-watch\\fR for the
        recent documents with continuous sync on; enable it with
        \\fBsystemctl \\-\\-user enable \\-\\-now folio\\-sync.service\\fR.
        .SH PLUGIN PACKAGES
        \\fBfolio plugins pack\\fR \\fIDIR\\fR makes \\fIID\\-VERSION.folio\\-package.tar\\fR, an uncompressed ustar archive
        holding \\fIfolio\\-package.json\\fR (first), the plugin library and its manifest, \\fItemplates/\\fR,
        \\fIsamples/\\fR, a README and a licence. \\fBfolio plugins install\\fR takes such a file, a package folder or a
        bare \\fB.so\\fR, checks every entry (paths, kinds, sizes) before anything is placed, and installs it whole or
        not at all; its templates are then offered under the source \\fIplugin:ID\\fR and its samples by
        \\fBfolio new\\fR \\fIPATH\\fR \\fB\\-\\-type\\fR \\fIT\\fR \\fB\\-\\-sample\\fR \\fINAME\\fR. \\fBfolio plugins link\\fR \\fIDIR\\fR
        makes a build under development replace the installed copy of its id until \\fBfolio plugins unlink\\fR \\fIID\\fR.
        .SH EXIT STATUS
        0 on success, 1 when the command failed, 2 for a usage mistake.
        .SH ENVIRONMENT
        .TP
        .B FOLIO_TEMPLATES
        A folder used instead of the bundled templates.
        .TP
        .B FOLIO_PLUGIN_PATH
        Colon\\-separated folders searched for editor plugins after the bundled ones and \\fI$XDG_DATA_HOME/folio/plugins\\fR.
        .TP
        .B FOLIO_SSH_KNOWN_HOSTS
        The known_hosts file ssh remotes are checked against (default \\fI~/.ssh/known_hosts\\fR).
        .TP
        .B NETRC
        The file http(s) remotes take a login and token from when the server asks (default \\fI~/.netrc\\fR:
        \\fBmachine\\fR \\fIHOST\\fR \\fBlogin\\fR \\fINAME\\fR \\fBpassword\\fR \\fITOKEN\\fR); never copied into a document.
        .TP
        .B XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_CACHE_HOME
        Where settings, user plugins, window state and crash reports, and template caches are kept (under \\fIfolio/\\fR).
        .SH FILES
        .TP
        .I PREFIX/lib/folio/plugins/
        The bundled editor plugins (\\fB.so\\fR) with their manifests, found relative to the \\fBfolio\\fR executable.
        .TP
        .I PREFIX/share/folio/templates/
        The bundled template repository.
        .TP
        .I PREFIX/lib/systemd/user/folio\\-sync.service
        The systemd user unit running \\fBfolio sync \\-\\-watch\\fR.
        .TP
        .I PREFIX/libexec/folio/folio\\-plugin\\-host
        The process each plugin runs in (also looked for beside \\fBfolio\\fR).
        .TP
        .I PREFIX/share/doc/folio/PLUGINS.md
        The plugin author's guide: the C ABI, the Swift kit, testing, validating and installing a plugin.
        .TP
        .I PREFIX/include/folio/folio_plugin.h, PREFIX/include/folio/folio_text.h, PREFIX/lib/pkgconfig/folio\\-plugin.pc
        The plugin C ABI and its text helpers (UTF\\-8, display widths, arguments, lines cut by cells):
        \\fBcc $(pkg\\-config \\-\\-cflags \\-\\-libs folio\\-plugin) \\-shared \\-fPIC\\fR.
        .TP
        .I PREFIX/share/folio/sdk/swift/
        The Swift SDK, a SwiftPM package with \\fBFolioPluginKit\\fR (the \\fBplugin/swift\\fR template finds it from the
        \\fBfolio\\fR on \\fBPATH\\fR, or \\fBFOLIO_SDK\\fR). Swift plugins must be built with the Swift toolchain Folio was built with.
        .TP
        .I PREFIX/lib/folio/swift/
        The Swift runtime the plugin host and every Swift plugin run on.
        .SH SEE ALSO
        .BR git (1),
        .BR pkg\\-config (1);
        the plugin guide in \\fIPREFIX/share/doc/folio/PLUGINS.md\\fR.

        """
        return page
    }

    /// The options of every form of `command`, each with its value name and help, indented under it.
    static func options(_ command: Command) -> String {
        var seen: Set<String> = []
        let shown = command.forms.flatMap(\.options).filter { seen.insert($0.name).inserted }
        guard !shown.isEmpty else { return "" }
        return ".RS\n" + shown.map { option in
            ".TP\n\\fB\(escape(option.name))\\fR" + (option.value.map { " \\fI\(escape($0))\\fR" } ?? "") + "\n"
                + escape(OptionHelp.help(option.name, command: command.name) ?? "") + "\n"
        }.joined() + ".RE\n"
    }

    /// Text made safe for roff: backslashes and hyphens escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
