// SPDX-License-Identifier: GPL-3.0-or-later
// One number policy for every CSV and every JSON PosAtlas writes (the command line, the GUI's data export
// and the explorer's table), so that the same number is always the same text:
//   - integral values of magnitude below 2^53 print as integers: "1000000", never "1e+06" or "1000000.0";
//   - every other finite value prints as the shortest text that reads back to the same double
//     (std::to_chars; e.g. 0.1 -> "0.1", 1/3 -> "0.3333333333333333", 1e-300 -> "1e-300");
//   - NaN and infinities have no number text: CSV leaves the cell empty (the caller decides).
// std::to_chars neither allocates nor consults the locale: a German locale still writes "0.5".
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace posatlas {

// 2^53: every integer of smaller magnitude is exact as a double (and prints as an integer below); the
// largest seed a field accepts.
inline constexpr double kExactIntegerLimit = 9007199254740992.0;

// The project's number texts, one function per use (the GUI's format_number in views/figure_style.h only
// converts display_number to a QString):
//   number_text      full precision for data files (CSV, JSON): the policy above;
//   format_number    full precision for messages (declared in scenario/validation.h as well): the
//                    shortest text with at least 6 significant digits that reads back to v, printf's
//                    %g style ("0.1", "1e+12", "0.30000000000000004"), "nan", "inf", "-inf";
//   display_number   `significant` digits for labels, ticks, readouts and tables on screen.
// None consults the locale.

// Appends the text of a finite v to out; appends nothing for NaN or infinity. Returns whether v was finite.
bool append_number_text(std::string& out, double v);

// The text of v as above ("" for NaN and infinity).
std::string number_text(double v);

// Full precision for messages, as described above.
std::string format_number(double v);

// Display text with `significant` digits (at least 1): integers of magnitude below 10^7 in full ("4096");
// magnitudes below 10^-3 or from 10^5 on in exponent notation with a compact exponent ("1.2e4",
// "2.41e-6"); everything else with `significant` significant digits, trailing zeros dropped ("0.0625",
// "12.2"). Negative numbers start with the typographic minus U+2212; NaN is "NaN", infinities "∞" and
// "−∞". UTF-8.
std::string display_number(double v, int significant = 4);

// A number in running text (a figure's caption): integers below 10^5 in full ("4096", "10000"), integral
// multiples of a power of ten from 10^5 on as the power ("10⁶", "5·10⁶", "1.5·10⁵"), every other value
// as display_number with `significant` digits. UTF-8.
std::string prose_number(double v, int significant = 4);

// The exponent n in superscript digits ("⁶", "⁻³", "¹²"). UTF-8.
std::string superscript_digits(long n);

// The same policy for a float32 value (`compute matrix --precision single`), applied to the double that
// the float's shortest text denotes (float_as_short_double): integral values below 2^53 as integers, else
// the float's shortest round trip (0.1f -> "0.1", not the widened double's "0.10000000149011612");
// nothing for NaN or infinity. Returns whether v was finite. Every text reads back (strtof) to v.
bool append_float_text(std::string& out, float v);
// The double that the float's shortest text denotes (0.1f -> 0.1): put into a JSON document of doubles,
// it prints as that same short text. NaN and infinities are returned as they are.
double float_as_short_double(float v);

// One column of a CSV (or JSON columns) table: its name and either numbers (by the policy above, NaN an
// empty cell) or, for a text column (numbers empty), texts (a regime id, a series name).
struct CsvColumn {
    std::string name;
    std::vector<double> numbers;
    std::vector<std::string> texts;
    bool is_text() const { return numbers.empty() && !texts.empty(); }
    std::size_t size() const { return is_text() ? texts.size() : numbers.size(); }
};

// A CSV field as RFC 4180 has it: as given, or in double quotes (inner quotes doubled) when it holds a
// comma, a quote or a line break.
std::string csv_field(const std::string& s);

// The one CSV writer: columns of equal length as a header row of the column names, then one row per
// index, numbers by the policy above (empty cells for NaN), names and texts as csv_field. Rows are
// assembled in a buffer and written in large pieces, so 10^6 rows take about as long as the same numbers
// as JSON. Throws std::invalid_argument for columns of unequal length.
void write_csv_columns(std::ostream& out, const std::vector<CsvColumn>& columns);
// The same CSV as one string (the GUI's exports).
std::string csv_text(const std::vector<CsvColumn>& columns);

// Appends j as compact JSON (nlohmann's dump() layout and string escaping) with every number by the
// policy above, so CSV and JSON print the same text for the same number: a float that holds an
// integer prints as one (1000000, not 1000000.0), NaN and infinities as null.
void append_json_text(std::string& out, const nlohmann::json& j);

// Columns as one JSON object of arrays, {"name":[v0,v1,...],...} in the given order, numbers as above
// (null for NaN), texts as JSON strings, written in large pieces without building a document: long columns
// (rope-decay's 10^6 rows) cost about what the same CSV does. Names are written as JSON strings.
void write_json_columns(std::ostream& out, const std::vector<CsvColumn>& columns);

} // namespace posatlas
