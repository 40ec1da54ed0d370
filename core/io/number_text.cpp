// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/number_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace posatlas {

bool append_number_text(std::string& out, double v)
{
    if (!std::isfinite(v))
        return false;
    char buf[32]; // the longest shortest-round-trip double is 24 characters ("-2.2250738585072014e-308")
    std::to_chars_result r;
    if (v == std::trunc(v) && std::abs(v) < kExactIntegerLimit)
        r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v));
    else
        r = std::to_chars(buf, buf + sizeof buf, v);
    if (r.ec != std::errc())
        return false; // cannot happen with 32 characters; never write a partial number
    // -0.0 is integral and prints as "0"; that is the value a reader gets back up to the sign of zero.
    out.append(buf, r.ptr);
    return true;
}

bool append_float_text(std::string& out, float v)
{
    // The same text as number_text(float_as_short_double(v)), which JSON (holding doubles) prints: an
    // integral float as that double's integer; any other float as its own shortest text,
    // which is also the shortest text of the double that text denotes (a decimal of at most 9 digits
    // reads back exactly through a double). Written directly: going through the double took three
    // conversions per number (a 4096-position CSV: 2.6 s against 1.5 s for doubles).
    if (!std::isfinite(v))
        return false;
    if (v == std::trunc(v) &&
        std::abs(v) <
            static_cast<float>(kExactIntegerLimit)) // rare: as JSON has it (2^40 + 2^17 -> 1099511800000)
        return append_number_text(out, float_as_short_double(v));
    char buf[24]; // the longest shortest-round-trip float is 15 characters ("-1.17549435e-38")
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
    if (r.ec != std::errc())
        return false;
    out.append(buf, r.ptr);
    return true;
}

double float_as_short_double(float v)
{
    if (!std::isfinite(v))
        return static_cast<double>(v);
    char buf[24];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
    double d = static_cast<double>(v);
    if (r.ec == std::errc())
        std::from_chars(buf, r.ptr, d);
    return d;
}

std::string format_number(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::to_chars_result r{};
    for (int precision = 6; precision <= 17; ++precision) {
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
        double back = 0.0;
        std::from_chars(buf, r.ptr, back);
        if (back == v)
            break;
    }
    return std::string(buf, r.ptr);
}

namespace {

// True when v lies exactly halfway between two numbers of `significant` digits (0.125 at 2 digits):
// std::to_chars, like printf, rounds such a tie to even ("0.12"); the display text rounds it away from
// zero ("0.13"), as the figures always have. v's exact decimal expansion then ends in that 5.
bool is_tie(double v, int significant)
{
    if (v == 0.0 || !std::isfinite(v) || significant > 15)
        return false;
    char buf[80];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, significant + 24);
    if (r.ec != std::errc())
        return false;
    std::string digits;
    for (const char* c = buf; c != r.ptr && *c != 'e'; ++c)
        if (*c >= '0' && *c <= '9')
            digits += *c;
    const auto cut = static_cast<std::size_t>(significant);
    return digits.size() > cut && digits[cut] == '5' &&
           digits.find_first_not_of('0', cut + 1) == std::string::npos;
}

} // namespace

std::string display_number(double v, int significant)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "\u221E" : "\u2212\u221E";
    significant = std::max(1, significant);
    char buf[64];
    std::to_chars_result r{};
    const double mag = std::abs(v);
    const bool integer = v == std::floor(v) && mag < 1e7;
    if (!integer && is_tie(v, significant))
        return display_number(std::nextafter(v, v > 0 ? HUGE_VAL : -HUGE_VAL), significant);
    if (integer)
        r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v));
    else if (mag != 0.0 && (mag < 1e-3 || mag >= 1e5))
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, significant - 1);
    else
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, significant);
    std::string s(buf, r.ptr);
    // A compact exponent for labels in narrow panels: 1.2e4, 1.15e-4 (not 1.2e+04, 1.15e-04).
    if (const auto e = s.find('e'); e != std::string::npos)
        s = s.substr(0, e + 1) + std::to_string(std::stoi(s.substr(e + 1)));
    // A typographic minus reads better on slides than a hyphen.
    if (!s.empty() && s.front() == '-')
        s.replace(0, 1, "\u2212");
    return s;
}

std::string superscript_digits(long n)
{
    static const char* const digits[] = {"\u2070", "\u00B9", "\u00B2", "\u00B3", "\u2074",
                                         "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    std::string out = n < 0 ? "\u207B" : "";
    for (const char c : std::to_string(n < 0 ? -static_cast<long long>(n) : static_cast<long long>(n)))
        out += digits[c - '0'];
    return out;
}

std::string prose_number(double v, int significant)
{
    const double mag = std::abs(v);
    if (std::isfinite(v) && v == std::floor(v) && mag >= 1e5 && mag < kExactIntegerLimit) {
        // The largest power of ten dividing v, and what is left of it (5 for 5·10⁶, 15 for 1.5·10⁵).
        auto mantissa = static_cast<std::int64_t>(mag);
        long exponent = 0;
        while (mantissa % 10 == 0) {
            mantissa /= 10;
            ++exponent;
        }
        if (mantissa < 100 && exponent >= 4) {
            const std::string sign = v < 0 ? "\u2212" : "";
            const std::string power = "10" + superscript_digits(mantissa >= 10 ? exponent + 1 : exponent);
            if (mantissa == 1)
                return sign + power;
            const double lead = mantissa >= 10 ? static_cast<double>(mantissa) / 10.0 : double(mantissa);
            return sign + display_number(lead, significant) + "\u00B7" + power;
        }
    }
    return display_number(v, significant);
}

std::string number_text(double v)
{
    std::string s;
    append_number_text(s, v);
    return s;
}

std::string csv_field(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"')
            q += '"';
        q += c;
    }
    q += '"';
    return q;
}

void write_csv_columns(std::ostream& out, const std::vector<CsvColumn>& columns)
{
    const std::size_t rows = columns.empty() ? 0 : columns.front().size();
    for (const CsvColumn& c : columns)
        if (c.size() != rows)
            throw std::invalid_argument("write_csv_columns: column " + c.name + " has " +
                                        std::to_string(c.size()) + " values, not " + std::to_string(rows));
    std::string buf;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c)
            buf += ',';
        buf += csv_field(columns[c].name);
    }
    buf += '\n';
    constexpr std::size_t kFlushAt = 1 << 16;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c)
                buf += ',';
            if (columns[c].is_text())
                buf += csv_field(columns[c].texts[r]);
            else
                append_number_text(buf, columns[c].numbers[r]);
        }
        buf += '\n';
        if (buf.size() >= kFlushAt) {
            out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

std::string csv_text(const std::vector<CsvColumn>& columns)
{
    std::ostringstream out;
    write_csv_columns(out, columns);
    return std::move(out).str();
}

void write_json_columns(std::ostream& out, const std::vector<CsvColumn>& columns)
{
    std::string buf = "{";
    constexpr std::size_t kFlushAt = 1 << 16;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c)
            buf += ',';
        buf += nlohmann::json(columns[c].name).dump();
        buf += ":[";
        const CsvColumn& col = columns[c];
        for (std::size_t i = 0; i < col.size(); ++i) {
            if (i)
                buf += ',';
            if (col.is_text())
                buf += nlohmann::json(col.texts[i]).dump();
            else if (!append_number_text(buf, col.numbers[i]))
                buf += "null";
            if (buf.size() >= kFlushAt) {
                out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
                buf.clear();
            }
        }
        buf += ']';
    }
    buf += "}\n";
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

void append_json_text(std::string& out, const nlohmann::json& j)
{
    using nlohmann::json;
    switch (j.type()) {
    case json::value_t::object: {
        out += '{';
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first)
                out += ',';
            first = false;
            out += json(it.key()).dump();
            out += ':';
            append_json_text(out, it.value());
        }
        out += '}';
        return;
    }
    case json::value_t::array: {
        out += '[';
        bool first = true;
        for (const json& v : j) {
            if (!first)
                out += ',';
            first = false;
            append_json_text(out, v);
        }
        out += ']';
        return;
    }
    case json::value_t::number_float:
        if (!append_number_text(out, j.get<double>()))
            out += "null";
        return;
    case json::value_t::number_integer: {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, j.get<std::int64_t>());
        out.append(buf, r.ptr);
        return;
    }
    case json::value_t::number_unsigned: {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, j.get<std::uint64_t>());
        out.append(buf, r.ptr);
        return;
    }
    default: out += j.dump(); // strings (escaped), booleans, null
    }
}

} // namespace posatlas
