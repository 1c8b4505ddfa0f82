// The report page's inline stylesheet and script (private to the report stage).
#pragma once

namespace revsum::report_internal {

// CSS: laptop-width layout, polarity colours, CJK fonts Debian ships, @media print.
extern const char kPageCss[];
// JavaScript: reads the JSON of <script id="revsum-data">; shows a point's evidence on click and a
// chosen review's attention. It writes data into the DOM with textContent only.
extern const char kPageScript[];

}  // namespace revsum::report_internal
