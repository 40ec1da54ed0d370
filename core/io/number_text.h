// SPDX-License-Identifier: GPL-3.0-or-later
// One number policy for every CSV the project writes (the command line's `compute` and `export`, and the
// GUI's Export Data), so that the same number is always the same text:
//   - integral values of magnitude below 2^53 print as integers: "1000000", never "1e+06" or "1000000.0";
//   - every other finite value prints as the shortest text that reads back to the same double
//     (std::to_chars; e.g. 0.1 -> "0.1", 1/3 -> "0.3333333333333333", 1e-300 -> "1e-300");
//   - NaN and infinities have no number text: CSV leaves the cell empty (the caller decides).
// std::to_chars neither allocates nor consults the locale: a German locale still writes "0.5".
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace posatlas {

// Appends the text of a finite v to out; appends nothing for NaN or infinity. Returns whether v was finite.
bool append_number_text(std::string& out, double v);

// The text of v as above ("" for NaN and infinity).
std::string number_text(double v);

// Columns of equal length as CSV: a header row of the column names, then one row per index, numbers by
// the policy above (empty cells for NaN). Rows are assembled in a buffer and written in large pieces, so
// 10^6 rows take about as long as the same numbers as JSON. Column names are written as given (the
// callers' names contain no commas or quotes). Throws std::invalid_argument for columns of unequal length.
using CsvColumn = std::pair<std::string, std::vector<double>>;
void write_csv_columns(std::ostream& out, const std::vector<CsvColumn>& columns);

} // namespace posatlas
