// Writing a file the user named on the command line (`report -o`, `train --out`,
// `eval --write-summaries`), without harming what is already there.
//
//   "-"                       standard output.
//   a missing path, or a      the content goes to a temporary file created exclusively
//   regular file with one     (mkstemp: O_CREAT|O_EXCL, so no planted name or symlink is
//   link                      followed) in the target's folder, is flushed to disk, takes the
//                             target's mode and owner (a new file: 0666 less the umask) and is
//                             renamed over the target: a failure leaves the old file whole and
//                             no temporary behind.
//   anything else             streamed into as it is, like a shell's `>`: a FIFO, a device, a
//                             symlink (its target is written, the link stays), a regular file
//                             with several hard links (truncated and rewritten in place, so the
//                             links keep sharing it). Nothing is renamed over a non-regular file.
//   a directory               refused.
//
// Errors throw revsum::Error (error.h) naming `what` (e.g. "report: -o out.html") and the cause.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace revsum::cli {

void WriteOutputFile(const std::string& path, const std::string& what,
                     const std::function<void(std::ostream&)>& write);

}  // namespace revsum::cli
