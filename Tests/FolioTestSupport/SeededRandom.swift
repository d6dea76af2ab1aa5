// SeededRandom lives in FolioCore (folio plugins validate's generated calls use it too); re-exported for the tests
// that import only FolioTestSupport.
@_exported import struct FolioCore.SeededRandom
