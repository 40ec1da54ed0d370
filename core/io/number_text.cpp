// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <system_error>

namespace posatlas {

bool append_number_text(std::string& out, double v)
{
    if (!std::isfinite(v))
        return false;
    char buf[32]; // the longest shortest-round-trip double is 24 characters ("-2.2250738585072014e-308")
    std::to_chars_result r;
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    if (v == std::trunc(v) && std::abs(v) < kExactIntegers)
        r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v));
    else
        r = std::to_chars(buf, buf + sizeof buf, v);
    if (r.ec != std::errc())
        return false; // cannot happen with 32 characters; never write a partial number
    // -0.0 is integral and prints as "0"; that is the value a reader gets back up to the sign of zero.
    out.append(buf, r.ptr);
    return true;
}

std::string number_text(double v)
{
    std::string s;
    append_number_text(s, v);
    return s;
}

void write_csv_columns(std::ostream& out, const std::vector<CsvColumn>& columns)
{
    const std::size_t rows = columns.empty() ? 0 : columns.front().second.size();
    for (const CsvColumn& c : columns)
        if (c.second.size() != rows)
            throw std::invalid_argument("write_csv_columns: column " + c.first + " has " +
                                        std::to_string(c.second.size()) + " values, not " + std::to_string(rows));
    std::string buf;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c)
            buf += ',';
        buf += columns[c].first;
    }
    buf += '\n';
    constexpr std::size_t kFlushAt = 1 << 16;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c)
                buf += ',';
            append_number_text(buf, columns[c].second[r]);
        }
        buf += '\n';
        if (buf.size() >= kFlushAt) {
            out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

} // namespace posatlas
