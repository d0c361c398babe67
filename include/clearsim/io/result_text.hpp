// Reading a text file that may be a result of clearsim (a CSV written by `clearsim run`).
#pragma once

#include <string>

namespace cs {

// The whole text of the file at `path`. A result of clearsim (its first line starts with
// "# clearsim") whose text does not end with a newline lost part of its last row: the run was
// killed inside that row's write (the kernel ends a write cut by SIGKILL at a page boundary of
// the file, see io/csv_writer.cpp). Then this throws std::runtime_error naming the file and the
// row, rather than let a reader take a number cut short for a whole one. Any other file (a
// measurement file made by hand may well lack its last newline) is returned as it is.
std::string read_result_text(const std::string& path);

}  // namespace cs
