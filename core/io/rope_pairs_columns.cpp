// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/rope_pairs_columns.h"

#include "io/columns.h"

#include <cmath>
#include <stdexcept>

namespace posatlas {

namespace {

bool has_ramp(const RopePairsTable& t)
{
    return !t.rows.empty() && std::isfinite(t.rows.front().ramp);
}

std::vector<CsvColumn> table_columns(const std::vector<const RopePairsTable*>& tables, bool ramp)
{
    std::vector<CsvColumn> c{{columns::kPair},       {columns::kInvFreqOriginal},
                             {columns::kInvFreq},    {columns::kWavelengthOriginal},
                             {columns::kWavelength}, {columns::kRatio}};
    if (ramp)
        c.push_back({columns::kRamp});
    const std::size_t regime = c.size();
    c.push_back({columns::kRegime});
    c.push_back({columns::kTrainedMaxAngle});
    c.push_back({columns::kTargetMaxAngle});
    c.push_back({columns::kUnseenRotation});
    for (const RopePairsTable* t : tables)
        for (const RopePairRow& r : t->rows) {
            std::size_t k = 0;
            for (double v : {static_cast<double>(r.index), r.theta, r.scaled_theta, r.wavelength,
                             r.scaled_wavelength, r.ratio})
                c[k++].numbers.push_back(v);
            if (ramp)
                c[k].numbers.push_back(r.ramp); // NaN (an empty cell) for a table without a ramp
            c[regime].texts.emplace_back(pair_regime_id(r.regime));
            c[regime + 1].numbers.push_back(r.trained_max_angle);
            c[regime + 2].numbers.push_back(r.target_max_angle);
            c[regime + 3].numbers.push_back(r.unseen_rotation ? 1.0 : 0.0);
        }
    return c;
}

} // namespace

std::vector<CsvColumn> rope_pairs_columns(const RopePairsTable& table)
{
    return table_columns({&table}, has_ramp(table));
}

std::vector<CsvColumn> rope_pairs_columns(const std::vector<std::string>& names,
                                          const std::vector<const RopePairsTable*>& tables)
{
    if (names.size() != tables.size())
        throw std::invalid_argument("rope_pairs_columns: one name per table");
    bool ramp = false;
    CsvColumn series{columns::kSeries};
    for (std::size_t k = 0; k < tables.size(); ++k) {
        ramp = ramp || has_ramp(*tables[k]);
        series.texts.insert(series.texts.end(), tables[k]->rows.size(), names[k]);
    }
    std::vector<CsvColumn> c = table_columns(tables, ramp);
    c.insert(c.begin(), std::move(series));
    return c;
}

} // namespace posatlas
