// SPDX-License-Identifier: GPL-3.0-or-later
// One number policy for every CSV and every JSON the command line writes (and the GUI's Export Data
// CSV), so that the same number is always the same text:
//   - integral values of magnitude below 2^53 print as integers: "1000000", never "1e+06" or "1000000.0";
//   - every other finite value prints as the shortest text that reads back to the same double
//     (std::to_chars; e.g. 0.1 -> "0.1", 1/3 -> "0.3333333333333333", 1e-300 -> "1e-300");
//   - NaN and infinities have no number text: CSV leaves the cell empty (the caller decides).
// std::to_chars neither allocates nor consults the locale: a German locale still writes "0.5".
#pragma once

#include <nlohmann/json_fwd.hpp>

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

// The same policy for a float32 value (`compute matrix --precision single`), applied to the double that
// the float's shortest text denotes (float_as_short_double): integral values below 2^53 as integers, else
// the float's shortest round trip (0.1f -> "0.1", not the widened double's "0.10000000149011612");
// nothing for NaN or infinity. Returns whether v was finite. Every text reads back (strtof) to v.
bool append_float_text(std::string& out, float v);
// The double that the float's shortest text denotes (0.1f -> 0.1): put into a JSON document of doubles,
// it prints as that same short text. NaN and infinities are returned as they are.
double float_as_short_double(float v);

// Columns of equal length as CSV: a header row of the column names, then one row per index, numbers by
// the policy above (empty cells for NaN). Rows are assembled in a buffer and written in large pieces, so
// 10^6 rows take about as long as the same numbers as JSON. Column names are written as given (the
// callers' names contain no commas or quotes). Throws std::invalid_argument for columns of unequal length.
using CsvColumn = std::pair<std::string, std::vector<double>>;
void write_csv_columns(std::ostream& out, const std::vector<CsvColumn>& columns);

// Appends j as compact JSON (nlohmann's dump() layout and string escaping) with every number by the
// policy above, so CSV and JSON print the same text for the same number: a float that holds an
// integer prints as one (1000000, not 1000000.0), NaN and infinities as null.
void append_json_text(std::string& out, const nlohmann::json& j);

// Columns as one JSON object of arrays, {"name":[v0,v1,...],...} in the given order, numbers as above
// (null for NaN), written in large pieces without building a document: long columns (rope-decay's
// 10^6 rows) cost about what the same CSV does. Names are written as JSON strings.
void write_json_columns(std::ostream& out, const std::vector<CsvColumn>& columns);

} // namespace posatlas
