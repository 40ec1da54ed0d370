// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/lab_run.h"

#include "io/input_file.h"
#include "io/number_text.h"
#include "io/safe_write.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <set>

namespace posatlas::lab {

std::string run_file(const std::string& dir, const char* name)
{
    return dir + "/" + name;
}

void write_run_text(const std::string& path, const std::string& text)
{
    SafeFileWriter w(path);
    w.write(text);
    w.commit();
}

std::string metrics_line(int step, double lr, double loss, double accuracy, bool perplexity)
{
    nlohmann::json j{{"step", step}, {"lr", lr}, {"loss", loss}, {"answer_accuracy", accuracy}};
    if (perplexity)
        j["perplexity"] = std::exp(loss);
    return j.dump() + "\n";
}

namespace {

const char* pairing_id(RopePairing p)
{
    return p == RopePairing::Half ? "half" : "interleaved";
}

nlohmann::json positional_json(const LabConfig& c)
{
    nlohmann::json p{{"method", c.method}};
    const std::string& m = c.method;
    if (m == "sinusoidal")
        p.update({{"added_to", "token embedding"}, {"base", c.sinusoidal_base}, {"layout", "interleaved"}});
    else if (m == "learned")
        p.update({{"added_to", "token embedding"}, {"max_position_embeddings", c.learned_rows()}});
    else if (m == "rope")
        p.update({{"rope_theta", c.rope_theta},
                  {"pairing", pairing_id(c.rope_pairing)},
                  {"partial_rotary_factor", c.partial_rotary_factor},
                  {"rotary_dim", static_cast<int>(c.head_dim() * c.partial_rotary_factor)}});
    else if (m == "xpos")
        p.update({{"base", c.rope_theta}, {"scale_base", c.xpos_scale_base}, {"pairing", "interleaved"}});
    else if (m == "alibi")
        p.update({{"slopes", "Press et al. get_slopes(heads)"}, {"bias", "causal"}});
    else if (m == "t5")
        p.update({{"relative_attention_num_buckets", c.t5_num_buckets},
                  {"relative_attention_max_distance", c.t5_max_distance},
                  {"bidirectional", false},
                  {"bias_per_layer", true}});
    else if (m == "cope")
        p.update({{"npos_max", c.cope_npos_max}, {"pos_emb_per_layer", true}, {"gate_scale", 1.0}});
    else if (m == "shaw")
        p.update({{"max_relative_position", c.shaw_max_relative_position},
                  {"tables", "a^K and a^V per layer, shared by the heads"}});
    else if (m == "transformer-xl")
        p.update({{"base", c.sinusoidal_base},
                  {"tables", "r_net, r_w_bias, r_r_bias per layer and head"},
                  {"terms", "a+b+c+d"}});
    else if (m == "deberta")
        p.update({{"position_buckets", c.deberta_position_buckets},
                  {"max_relative_positions", c.deberta_max_relative_positions},
                  {"pos_att_type", "c2p|p2c"},
                  {"rel_embeddings", "shared by the layers, no LayerNorm"}});
    return p;
}

// A field of a config.json object, its type checked; absent: `fallback`.
struct Reader {
    const std::string& path;
    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        throw LabRunError(quote_input(path, 200) + ": " + where + ": " + what);
    }
    const nlohmann::json& object(const nlohmann::json& j, const char* key) const
    {
        if (!j.contains(key) || !j.at(key).is_object())
            fail(key, "missing or not an object");
        return j.at(key);
    }
    double number(const nlohmann::json& o, const char* key, double fallback, bool required = true) const
    {
        if (!o.contains(key)) {
            if (required)
                fail(key, "missing");
            return fallback;
        }
        if (!o.at(key).is_number())
            fail(key, "not a number");
        const double v = o.at(key).get<double>();
        if (!std::isfinite(v))
            fail(key, "not a finite number");
        return v;
    }
    std::int64_t integer(const nlohmann::json& o, const char* key, std::int64_t fallback,
                         bool required = true) const
    {
        const double v = number(o, key, static_cast<double>(fallback), required);
        if (v != std::floor(v) || std::fabs(v) > 1e15)
            fail(key, "not an integer: " + format_number(v));
        return static_cast<std::int64_t>(v);
    }
    std::string text(const nlohmann::json& o, const char* key, const std::string& fallback,
                     bool required = true) const
    {
        if (!o.contains(key)) {
            if (required)
                fail(key, "missing");
            return fallback;
        }
        if (!o.at(key).is_string())
            fail(key, "not a string");
        return o.at(key).get<std::string>();
    }
};

nlohmann::json config_json(const LabConfig& c, const std::string& status, int steps_done)
{
    nlohmann::json j;
    j["format"] = "posatlas-lab-run";
    j["version"] = 1;
    j["status"] = status;
    j["steps_done"] = steps_done;
    j["architecture"] = {{"type", "decoder-only transformer"},
                         {"layers", c.layers},
                         {"d_model", c.d_model},
                         {"heads", c.heads},
                         {"head_dim", c.head_dim()},
                         {"mlp_ratio", c.mlp_ratio},
                         {"activation", "gelu"},
                         {"norm", "pre-LayerNorm"},
                         {"causal", true},
                         {"vocab_size", c.vocab()},
                         {"tied_embeddings", false}};
    j["task"] = {{"name", c.task}, {"alphabet", c.alphabet}, {"train_len", c.train_len}};
    if (c.language_model())
        j["task"]["corpus"] = {{"path", c.corpus},
                               {"files", c.corpus_id.files},
                               {"hash", c.corpus_id.hash},
                               {"hash_function", "FNV-1a 64 of each file's relative name, NUL, bytes, NUL"},
                               {"characters", c.corpus_id.characters},
                               {"vocabulary", c.corpus_id.vocabulary},
                               {"ids", "0 unknown, 1.. the corpus's code points in increasing order"},
                               {"held_out", "the last 10 % of each file's characters"}};
    j["training"] = {{"optimizer", "AdamW"},
                     {"betas", {0.9, 0.98}},
                     {"lr", c.lr},
                     {"schedule", "linear warm-up, cosine decay to 0"},
                     {"warmup", c.warmup},
                     {"weight_decay", c.weight_decay},
                     {"grad_clip_norm", 1.0},
                     {"steps", c.steps},
                     {"batch", c.batch},
                     {"seed", c.seed},
                     {"threads", c.threads},
                     {"log_every", c.log_every},
                     {"checkpoint_every", c.checkpoint_every}};
    j["positional"] = positional_json(c);
    return j;
}

} // namespace

std::string config_text(const LabConfig& c, const std::string& status, int steps_done)
{
    return config_json(c, status, steps_done).dump(2) + "\n";
}

std::string finetune_config_text(const LabConfig& c, const std::string& status, int steps_done,
                                 const FineTune& f, const TestScaling& scaling, const std::string& from)
{
    nlohmann::json j = config_json(c, status, steps_done);
    nlohmann::json scale{{"rope_type", std::string(rope_type_id(scaling.rope_type))},
                         {"alibi_scaling", scaling.alibi == AlibiScaling::Ntk           ? "ntk"
                                           : scaling.alibi == AlibiScaling::Interpolate ? "interpolate"
                                                                                        : "none"}};
    if (scaling.rope_type != RopeType::Default)
        scale["factor"] = scaling.factor;
    if (scaling.rope_type == RopeType::LongRope) {
        scale["long_factor"] = scaling.long_factor;
        scale["short_factor"] = scaling.short_factor.empty()
                                    ? std::vector<double>(scaling.long_factor.size(), 1.0)
                                    : scaling.short_factor;
    }
    j["finetune"] = {{"from", from},
                     {"steps", f.steps},
                     {"length", f.length},
                     {"lr", finetune_lr(c, f)},
                     {"warmup", finetune_warmup(c, f)},
                     {"schedule", "linear warm-up, cosine decay to 0"},
                     {"batch", c.batch},
                     {"data", "the run's seed, batch indices after its training steps"},
                     {"scaling", scale},
                     {"note", "evaluate with the same scaling: train_len stays the original trained length"}};
    return j.dump(2) + "\n";
}

void check_new_run_folder(const std::string& dir)
{
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::path(dir) / "config.json", ec))
        throw LabRunError(dir + ": already holds a run (config.json); choose another --out");
}

RunInfo read_run_config(const std::string& dir)
{
    const std::string path = run_file(dir, "config.json");
    const Reader r{path};
    nlohmann::json j;
    try {
        j = parse_json_input(read_input_file(path, 1 << 16), 4096);
    } catch (const InputFileError& e) {
        const std::string what = e.what();
        throw LabRunError(what.rfind(path, 0) == 0 ? what : quote_input(path, 200) + ": " + what);
    }
    if (!j.is_object())
        r.fail("the file", "not a JSON object");
    if (r.text(j, "format", "") != "posatlas-lab-run")
        r.fail("format", "not a PosAtlas lab run (\"posatlas-lab-run\")");
    if (r.integer(j, "version", 0) != 1)
        r.fail("version", "only version 1 is known");
    RunInfo info;
    info.status = r.text(j, "status", "");
    if (info.status != "running" && info.status != "cancelled" && info.status != "complete")
        r.fail("status", "one of running, cancelled, complete");
    LabConfig& c = info.config;
    const nlohmann::json& a = r.object(j, "architecture");
    const nlohmann::json& t = r.object(j, "task");
    const nlohmann::json& tr = r.object(j, "training");
    const nlohmann::json& p = r.object(j, "positional");
    const auto small = [&](const nlohmann::json& o, const char* key) {
        const std::int64_t v = r.integer(o, key, 0);
        if (v < -(1 << 30) || v > (1 << 30))
            r.fail(key, "out of range");
        return static_cast<int>(v);
    };
    c.layers = small(a, "layers");
    c.d_model = small(a, "d_model");
    c.heads = small(a, "heads");
    c.mlp_ratio = small(a, "mlp_ratio");
    c.task = r.text(t, "name", "");
    c.alphabet = small(t, "alphabet");
    c.train_len = r.integer(t, "train_len", 0);
    if (c.task == "lm") {
        c.vocab_size = small(a, "vocab_size");
        const nlohmann::json& corpus = r.object(t, "corpus");
        c.corpus = r.text(corpus, "path", "");
        c.corpus_id.hash = r.text(corpus, "hash", "");
        c.corpus_id.characters = r.integer(corpus, "characters", 0);
        c.corpus_id.vocabulary = small(corpus, "vocabulary");
        if (!corpus.contains("files") || !corpus.at("files").is_array())
            r.fail("files", "missing or not a list");
        for (const nlohmann::json& f : corpus.at("files")) {
            if (!f.is_string())
                r.fail("files", "not a list of file names");
            c.corpus_id.files.push_back(f.get<std::string>());
        }
        if (c.corpus_id.vocabulary < 2 || c.corpus_id.vocabulary > c.vocab_size)
            r.fail("vocabulary", "not in [2, architecture.vocab_size]");
    }
    c.lr = r.number(tr, "lr", 0);
    c.warmup = small(tr, "warmup");
    c.weight_decay = r.number(tr, "weight_decay", 0);
    c.steps = small(tr, "steps");
    c.batch = small(tr, "batch");
    c.seed = static_cast<std::uint64_t>(r.integer(tr, "seed", 0));
    c.threads = small(tr, "threads");
    c.log_every = small(tr, "log_every");
    c.checkpoint_every = small(tr, "checkpoint_every");
    c.method = r.text(p, "method", "");
    if (c.method == "sinusoidal")
        c.sinusoidal_base = r.number(p, "base", c.sinusoidal_base);
    else if (c.method == "learned")
        c.max_positions = r.integer(p, "max_position_embeddings", 0);
    else if (c.method == "rope") {
        c.rope_theta = r.number(p, "rope_theta", 0);
        const std::string pairing = r.text(p, "pairing", "");
        if (pairing != "half" && pairing != "interleaved")
            r.fail("pairing", "half or interleaved");
        c.rope_pairing = pairing == "half" ? RopePairing::Half : RopePairing::Interleaved;
        c.partial_rotary_factor = r.number(p, "partial_rotary_factor", 1.0);
    } else if (c.method == "xpos") {
        c.rope_theta = r.number(p, "base", 0);
        c.xpos_scale_base = r.number(p, "scale_base", 0);
    } else if (c.method == "t5") {
        c.t5_num_buckets = small(p, "relative_attention_num_buckets");
        c.t5_max_distance = small(p, "relative_attention_max_distance");
    } else if (c.method == "cope")
        c.cope_npos_max = small(p, "npos_max");
    else if (c.method == "shaw")
        c.shaw_max_relative_position = small(p, "max_relative_position");
    else if (c.method == "transformer-xl")
        c.sinusoidal_base = r.number(p, "base", 0);
    else if (c.method == "deberta") {
        c.deberta_position_buckets = small(p, "position_buckets");
        c.deberta_max_relative_positions = small(p, "max_relative_positions");
    }
    const std::int64_t done = r.integer(j, "steps_done", 0);
    try {
        validate(c);
    } catch (const ParameterError& e) {
        r.fail(e.parameter(), e.got() + " is out of range (allowed: " + e.allowed() + ")");
    }
    if (done < 0 || done > c.steps)
        r.fail("steps_done", "not in [0, training.steps]");
    info.steps_done = static_cast<int>(done);
    return info;
}

} // namespace posatlas::lab
