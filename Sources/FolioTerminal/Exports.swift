// Display widths live in their own small module so editor plugins (through FolioPluginKit) and the host measure
// text with the same function; FolioTerminal's users get it as before.
@_exported import FolioDisplayWidth
