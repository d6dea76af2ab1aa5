// FolioBasics: what Folio used to take from Foundation's internationalization layer (and so from ICU, whose data is
// 34 MB of a static binary), written small: whitespace trimming, fixed-point number text, timestamps, threads and
// error text. Folio's modules import `FoundationEssentials` (no ICU) and this module instead of `Foundation`.
