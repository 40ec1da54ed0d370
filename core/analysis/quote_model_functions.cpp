// SPDX-License-Identifier: GPL-3.0-or-later
// Quoted numbers of the encodings of today's models (quote_functions.h): M-RoPE's position ids and its
// pairs per axis, Llama 4's attention temperature, the value a method's own curve family draws (MLA's
// rotary share, T5's buckets, ALiBi's factors), and MLA's softmax scale. Each returns what core computes
// for the views, never a second formula.
#include "analysis/quote_functions.h"

#include "methods/curve_family.h"
#include "methods/mla/mla.h"
#include "methods/mrope/mrope.h"

#include <algorithm>

namespace posatlas::quote {

namespace {

int axis_arg(const std::vector<Value>& a, std::size_t i, const char* fn)
{
    const std::int64_t axis = index_arg(a, i, fn);
    if (axis > 2)
        fail(std::string(fn) + ": axis " + std::to_string(axis) + " does not exist (0 t, 1 h, 2 w)");
    return static_cast<int>(axis);
}

double family_value(const Scenario& s, double r, std::int64_t k)
{
    const char* fn = "family_curve";
    const CurveFamily* family = curve_family_for(s);
    if (family == nullptr)
        fail(std::string(fn) + ": " + std::string(s.method.id()) +
             " draws its logit against distance, not a curve family (quote it with curve(r))");
    const std::vector<double> dist{r};
    const FamilyCurves curves = family->build({s, static_cast<std::int64_t>(r), dist, {}, {}});
    if (k >= static_cast<std::int64_t>(curves.series.size()))
        fail(std::string(fn) + ": series " + std::to_string(k) + " does not exist (the family \"" +
             family->id + "\" draws " + std::to_string(curves.series.size()) + ", 0 to " +
             std::to_string(curves.series.size() - 1) + ")");
    const FamilySeries& series = curves.series[static_cast<std::size_t>(k)];
    if (!series.value_at)
        fail(std::string(fn) + ": the series \"" + series.id + "\" has no exact value at a distance");
    return series.value_at(r);
}

} // namespace

void add_model_functions(FunctionTable& t)
{
    // M-RoPE: token i's id on axis 0 (t), 1 (h) or 2 (w), as get_rope_index builds it.
    t["position_id"] = {2, 2, [](const Scenario& s, const std::vector<Value>& a) {
                            const char* fn = "position_id";
                            const MropeParams& p = params_of<MropeParams>(s, fn);
                            const std::int64_t token = index_arg(a, 0, fn);
                            if (token >= s.seq_len)
                                fail(std::string(fn) + ": token " + std::to_string(token) +
                                     " does not exist (the scenario has " + std::to_string(s.seq_len) +
                                     " tokens, 0 to " + std::to_string(s.seq_len - 1) + ")");
                            return static_cast<double>(MropePositions(p).at(token).id(axis_arg(a, 1, fn)));
                        }};
    // M-RoPE: how many rotary pairs turn by the axis's id (mrope_pair_axes).
    t["axis_pairs"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                           const char* fn = "axis_pairs";
                           const std::vector<int> axes = mrope_pair_axes(params_of<MropeParams>(s, fn));
                           return static_cast<double>(
                               std::count(axes.begin(), axes.end(), axis_arg(a, 0, fn)));
                       }};
    // The factor the logits of query position q are multiplied by (Llama 4's temperature tuning).
    t["temperature"] = {
        1, 1, [](const Scenario& s, const std::vector<Value>& a) {
            const char* fn = "temperature";
            if (!temperature_applies(s))
                fail(std::string(fn) +
                     " needs attn_temperature_tuning on in a NoPE or RoPE scenario (this step's "
                     "method is " +
                     std::string(s.method.id()) + ")");
            return logit_temperature(s, index_arg(a, 0, fn));
        }};
    // The curves view's value of the method's own family at distance r: series 0, or series k.
    t["family_curve"] = {1, 2, [](const Scenario& s, const std::vector<Value>& a) {
                             const double r = static_cast<double>(index_arg(a, 0, "family_curve"));
                             return family_value(s, r, a.size() > 1 ? index_arg(a, 1, "family_curve") : 0);
                         }};
    t["mla_softmax_scale"] = {0, 0, [](const Scenario& s, const std::vector<Value>&) {
                                  return mla_softmax_scale(params_of<MlaParams>(s, "mla_softmax_scale"));
                              }};
}

} // namespace posatlas::quote
