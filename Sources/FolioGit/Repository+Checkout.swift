import CGit2
import FoundationEssentials
import Glibc

extension Repository {
    /// Writes HEAD's files into an empty work tree and the index (for a fresh clone; existing files are overwritten).
    public func checkoutHeadIntoEmptyWorkTree() throws {
        var options = git_checkout_options()
        try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "checkout options")
        options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
        try check(git_checkout_head(pointer, &options), "check out HEAD", displayPath)
    }
}
