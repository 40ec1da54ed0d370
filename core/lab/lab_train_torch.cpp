// SPDX-License-Identifier: GPL-3.0-or-later
// Training, evaluation, probes and the gradient check of the lab's model (lab.h).
#include "lab/lab_model_torch.h"
#include "lab/lab_run.h"

#include "io/safe_write.h"
#include "io/safetensors.h"

#include <chrono>
#include <cmath>
#include <filesystem>

namespace posatlas::lab {

namespace {

torch::Tensor tokens_of(const std::vector<std::int64_t>& v, int batch, std::int64_t length)
{
    return torch::tensor(v, torch::kInt64).view({batch, length});
}

} // namespace

BatchLoss answer_loss(const torch::Tensor& logits, const TaskBatch& b)
{
    std::vector<std::int64_t> idx;
    for (std::size_t i = 0; i < b.answer.size(); ++i)
        if (b.answer[i])
            idx.push_back(static_cast<std::int64_t>(i));
    const torch::Tensor sel = torch::tensor(idx, torch::kInt64);
    const torch::Tensor flat = logits.reshape({-1, logits.size(-1)}).index_select(0, sel);
    const torch::Tensor target = torch::tensor(b.target, torch::kInt64).index_select(0, sel);
    BatchLoss r;
    r.loss = torch::nn::functional::cross_entropy(flat, target);
    r.correct = flat.argmax(-1).eq(target).sum().item<double>();
    r.answers = static_cast<double>(idx.size());
    return r;
}

namespace {

// Linear warm-up to `peak` over `warmup` steps, then cosine decay to 0 at `steps`; step 0-based.
double learning_rate(double peak, int warmup, int steps, int step)
{
    if (step < warmup)
        return peak * (step + 1) / warmup;
    const double t = steps > warmup ? static_cast<double>(step - warmup) / (steps - warmup) : 1.0;
    return peak * 0.5 * (1.0 + std::cos(M_PI * t));
}

// AdamW (betas 0.9, 0.98), weight decay on the matrices but the token embedding.
torch::optim::AdamW make_optimizer(Model& m, double lr, double weight_decay)
{
    std::vector<torch::Tensor> decay, keep;
    for (auto& [name, t] : m.params)
        (t.dim() >= 2 && name != "tok_emb" ? decay : keep).push_back(t);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decay,
                        std::make_unique<torch::optim::AdamWOptions>(
                            torch::optim::AdamWOptions(lr).betas({0.9, 0.98}).weight_decay(weight_decay)));
    groups.emplace_back(keep, std::make_unique<torch::optim::AdamWOptions>(
                                  torch::optim::AdamWOptions(lr).betas({0.9, 0.98}).weight_decay(0.0)));
    return torch::optim::AdamW(std::move(groups));
}

// One optimiser step on one batch (learning rate set first, gradient norm clipped to 1).
BatchLoss train_step(Model& m, torch::optim::AdamW& opt, const std::vector<torch::Tensor>& all, double lr,
                     const TaskBatch& b, const Positional& pos)
{
    for (auto& g : opt.param_groups())
        static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
    BatchLoss bl = answer_loss(m.forward(tokens_of(b.input, b.batch, b.length), pos), b);
    opt.zero_grad();
    bl.loss.backward();
    torch::nn::utils::clip_grad_norm_(all, 1.0);
    opt.step();
    return bl;
}

std::vector<torch::Tensor> all_params(Model& m)
{
    std::vector<torch::Tensor> all;
    for (auto& [name, t] : m.params)
        all.push_back(t);
    return all;
}

} // namespace

TrainSummary train_run(const LabConfig& given, const std::string& dir, const std::string& command,
                       const TrainHooks& hooks)
{
    validate(given); // before anything is created
    LabConfig c = given;
    Corpus corpus;
    if (c.language_model()) {
        corpus = load_corpus(c.corpus);
        fit_corpus(c, corpus);
        validate(c); // the memory estimate with the corpus's vocabulary
    }
    namespace fs = std::filesystem;
    check_new_run_folder(dir);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw OutputFileError(dir, ec.message());
    torch::set_num_threads(c.threads);
    write_run_text(run_file(dir, "command.txt"), command + "\n");
    write_run_text(run_file(dir, "config.json"), config_text(c, "running", 0));

    Model m = Model::init(c);
    torch::optim::AdamW opt = make_optimizer(m, c.lr, c.weight_decay);
    const std::vector<torch::Tensor> all = all_params(m);

    const Positional pos = make_positional(c, c.train_len, {}, torch::kFloat32);
    const auto start = std::chrono::steady_clock::now();
    const auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::string metrics;
    TrainSummary s;
    double sum_loss = 0, correct = 0, answers = 0;
    int in_interval = 0;
    for (int step = 0; step < c.steps; ++step) {
        if (hooks.cancel && hooks.cancel()) {
            write_run_text(run_file(dir, "config.json"), config_text(c, "cancelled", s.steps_done));
            s.seconds = seconds();
            return s;
        }
        const double lr = learning_rate(c.lr, c.warmup, c.steps, step);
        const TaskBatch b =
            task_batch(c, &corpus, c.train_len, c.batch, c.seed, static_cast<std::uint64_t>(step), true);
        const BatchLoss bl = train_step(m, opt, all, lr, b, pos);
        sum_loss += bl.loss.item<double>();
        correct += bl.correct;
        answers += bl.answers;
        ++in_interval;
        const int done = step + 1;
        if (done % c.log_every == 0 || done == c.steps) {
            s.loss = sum_loss / in_interval;
            s.accuracy = answers > 0 ? correct / answers : 0.0;
            metrics += metrics_line(done, lr, s.loss, s.accuracy, c.language_model());
            sum_loss = correct = answers = 0;
            in_interval = 0;
        }
        if (hooks.progress)
            hooks.progress({done, c.steps, in_interval ? sum_loss / in_interval : s.loss,
                            in_interval ? (answers > 0 ? correct / answers : 0.0) : s.accuracy, seconds()});
        if (done % c.checkpoint_every == 0 || done == c.steps) {
            // The weights first (atomically), then what says how far they are.
            save_weights(m, run_file(dir, "model.safetensors"), done);
            write_run_text(run_file(dir, "metrics.jsonl"), metrics);
            s.steps_done = done;
            if (done < c.steps)
                write_run_text(run_file(dir, "config.json"), config_text(c, "running", done));
        }
    }
    s.seconds = seconds();
    s.steps_per_second = s.seconds > 0 ? c.steps / s.seconds : 0.0;
    write_run_text(run_file(dir, "config.json"), config_text(c, "complete", c.steps));
    s.complete = true;
    return s;
}

namespace {

struct LoadedRun {
    RunInfo info;
    Model model;
    Corpus corpus; // lm: the run's corpus, checked against config.json's identity
};

// `corpus`: where an lm run's corpus is read from ("": the run's own); nullptr: not read (a probe is given
// its tokens).
LoadedRun load_run(const std::string& dir, const std::string* corpus)
{
    LoadedRun r;
    r.info = read_run_config(dir);
    if (corpus && r.info.config.language_model())
        r.corpus = run_corpus(r.info.config, *corpus);
    if (r.info.steps_done == 0)
        throw LabRunError(dir + ": the run has no checkpoint yet (config.json steps_done is 0)");
    r.model = load_weights(r.info.config, run_file(dir, "model.safetensors"));
    return r;
}

// Fine-tunes the loaded model in memory at f.length with `scaling` active (lab.h, FineTune); writes the
// new run folder f.out when set. Returns the mean answer loss of the last 10 steps.
double finetune(LoadedRun& run, const std::string& dir, const FineTune& f, const TestScaling& scaling,
                const CancelFn& cancel)
{
    const LabConfig& c = run.info.config;
    check_finetune(c, f);
    if (!f.out.empty())
        check_new_run_folder(f.out); // before any work
    Model& m = run.model;
    for (auto& [name, t] : m.params)
        t.set_requires_grad(true);
    const double peak = finetune_lr(c, f);
    const int warmup = finetune_warmup(c, f);
    torch::optim::AdamW opt = make_optimizer(m, peak, c.weight_decay);
    const std::vector<torch::Tensor> all = all_params(m);
    const Positional pos = make_positional(c, f.length, scaling, torch::kFloat32);
    std::string metrics;
    double sum_loss = 0, correct = 0, answers = 0, tail = 0;
    int in_interval = 0;
    const int tail_from = std::max(0, f.steps - 10);
    for (int step = 0; step < f.steps; ++step) {
        if (cancel && cancel())
            throw Cancelled();
        const double lr = learning_rate(peak, warmup, f.steps, step);
        // The run's training stream continued: its seed, batch indices after its training steps.
        const TaskBatch b =
            task_batch(c, &run.corpus, f.length, c.batch, c.seed,
                       static_cast<std::uint64_t>(c.steps) + static_cast<std::uint64_t>(step), true);
        const BatchLoss bl = train_step(m, opt, all, lr, b, pos);
        const double loss = bl.loss.item<double>();
        if (step >= tail_from)
            tail += loss;
        sum_loss += loss;
        correct += bl.correct;
        answers += bl.answers;
        ++in_interval;
        if ((step + 1) % c.log_every == 0 || step + 1 == f.steps) {
            metrics += metrics_line(step + 1, lr, sum_loss / in_interval,
                                    answers > 0 ? correct / answers : 0.0, c.language_model());
            sum_loss = correct = answers = 0;
            in_interval = 0;
        }
    }
    for (auto& [name, t] : m.params)
        t.set_requires_grad(false);
    if (!f.out.empty()) {
        namespace fs = std::filesystem;
        std::error_code ec;
        fs::create_directories(f.out, ec);
        if (ec)
            throw OutputFileError(f.out, ec.message());
        const int done = run.info.steps_done;
        write_run_text(run_file(f.out, "command.txt"), f.command + "\n");
        write_run_text(run_file(f.out, "config.json"),
                       finetune_config_text(c, "running", done, f, scaling, dir));
        save_weights(m, run_file(f.out, "model.safetensors"), done);
        write_run_text(run_file(f.out, "metrics.jsonl"), metrics);
        write_run_text(run_file(f.out, "config.json"),
                       finetune_config_text(c, "complete", done, f, scaling, dir));
    }
    return tail / (f.steps - tail_from);
}

} // namespace

std::vector<EvalRow> evaluate_run(const std::string& dir, const EvalOptions& o, const CancelFn& cancel,
                                  double* finetune_loss)
{
    LoadedRun run = load_run(dir, &o.corpus);
    const LabConfig& c = run.info.config;
    torch::set_num_threads(o.threads);
    if (finetune_loss)
        *finetune_loss = 0.0;
    if (o.finetune.active()) {
        const double loss = finetune(run, dir, o.finetune, o.scaling, cancel);
        if (finetune_loss)
            *finetune_loss = loss;
    }
    torch::NoGradGuard no_grad;
    std::vector<EvalRow> rows;
    for (const std::int64_t L : o.lengths) {
        EvalRow row;
        row.length = L;
        if (c.method == "learned" && L > c.learned_rows()) {
            row.defined = false; // the table has no rows there: not defined, never invented
            rows.push_back(row);
            continue;
        }
        LabConfig at = c;
        at.train_len = L;
        // Sequences per forward within the memory budget (the estimate counts gradients: an upper bound).
        int batch = std::min(o.sequences, 64);
        while (batch > 1 && (at.batch = batch, training_bytes(at)) > kLabMemoryBudget)
            batch /= 2;
        at.batch = 1;
        if (training_bytes(at) > kLabMemoryBudget)
            throw ParameterError("lengths", "lengths whose attention fits the memory budget",
                                 std::to_string(L));
        const Positional pos = make_positional(c, L, o.scaling, torch::kFloat32);
        double loss = 0, correct = 0, answers = 0;
        std::vector<double> entropy(static_cast<std::size_t>(c.layers), 0.0);
        for (int done = 0, index = 0; done < o.sequences; done += batch, ++index) {
            if (cancel && cancel())
                throw Cancelled();
            const int n = std::min(batch, o.sequences - done);
            const TaskBatch b =
                task_batch(c, &run.corpus, L, n, o.seed + static_cast<std::uint64_t>(L), index);
            const BatchLoss bl =
                answer_loss(run.model.forward(tokens_of(b.input, b.batch, L), pos, nullptr, 0, &entropy), b);
            loss += bl.loss.item<double>() * bl.answers;
            correct += bl.correct;
            answers += bl.answers;
        }
        row.accuracy = answers > 0 ? correct / answers : 0.0;
        row.loss = answers > 0 ? loss / answers : 0.0;
        // Mean over the sequences, heads and query positions.
        const double rows_of_attention = static_cast<double>(o.sequences) * c.heads * static_cast<double>(L);
        for (double& e : entropy)
            e /= rows_of_attention;
        row.attention_entropy = std::move(entropy);
        rows.push_back(row);
    }
    return rows;
}

std::vector<HeadProbe> probe_attention(const std::string& dir, const std::vector<std::int64_t>& tokens,
                                       int layer, const TestScaling& scaling)
{
    LoadedRun run = load_run(dir, nullptr);
    const LabConfig& c = run.info.config;
    const std::int64_t L = static_cast<std::int64_t>(tokens.size());
    if (layer < 0 || layer >= c.layers)
        throw ParameterError("layer", "in [0, " + std::to_string(c.layers - 1) + "]", std::to_string(layer));
    if (c.method == "learned" && L > c.learned_rows())
        throw ParameterError("lengths", "at most " + std::to_string(c.learned_rows()), std::to_string(L));
    for (std::int64_t t : tokens)
        if (t < 0 || t >= c.vocab())
            throw ParameterError("tokens", "in [0, " + std::to_string(c.vocab() - 1) + "]",
                                 std::to_string(t));
    torch::NoGradGuard no_grad;
    std::vector<HeadProbe> probe;
    run.model.forward(tokens_of(tokens, 1, L), make_positional(c, L, scaling, torch::kFloat32), &probe,
                      layer);
    return probe;
}

double attention_gradient_check(const std::string& method, double h)
{
    LabConfig c;
    c.method = method;
    c.layers = 1;
    c.d_model = 8;
    c.heads = 2;
    c.mlp_ratio = 1;
    c.alphabet = 5;
    c.train_len = 6;
    c.max_positions = 6;
    c.t5_num_buckets = 4;
    c.t5_max_distance = 8;
    c.cope_npos_max = 4;
    c.shaw_max_relative_position = 2; // clipped within six positions
    c.deberta_position_buckets = 4;   // log buckets past distance 2
    c.deberta_max_relative_positions = 8;
    c.partial_rotary_factor = method == "rope" ? 0.5 : 1.0;
    c.rope_theta = 10.0; // fast rotations over six positions
    c.xpos_scale_base = 4.0;
    validate(c);
    Model m = Model::init(c, torch::kFloat64);
    // Parameters start at zero (CoPE's e, LayerNorm biases): move every one off its initial value so that
    // their gradients are not special.
    {
        torch::NoGradGuard g;
        for (auto& [name, t] : m.params)
            t.add_(torch::randn(t.sizes(), torch::kFloat64) * 0.3);
    }
    const Positional pos = make_positional(c, c.train_len, {}, torch::kFloat64);
    const torch::Tensor tokens =
        torch::tensor(std::vector<std::int64_t>{3, 4, 1, 3, 4, 2}, torch::kInt64).view({1, 6});
    const torch::Tensor weights = torch::randn({1, 6, c.vocab()}, torch::kFloat64);
    const auto loss = [&] { return (m.forward(tokens, pos) * weights).sum(); };
    loss().backward();
    double worst = 0.0;
    for (auto& [name, t] : m.params) {
        const bool positional =
            name == kLearnedTensor || name == kDebertaRelTensor ||
            name.find("t5_bias") != std::string::npos || name.find("cope_pos_emb") != std::string::npos ||
            name.find("shaw_") != std::string::npos || name.find(".r_") != std::string::npos ||
            name.find("_proj.head") != std::string::npos;
        if (!positional && name != "tok_emb" && name.find("attn.w") == std::string::npos)
            continue;
        const torch::Tensor grad = t.grad().clone();
        torch::NoGradGuard g;
        torch::Tensor flat = t.view({-1});
        const std::int64_t n = flat.size(0), stride = std::max<std::int64_t>(1, n / 24);
        for (std::int64_t i = 0; i < n; i += stride) {
            const double v = flat[i].item<double>();
            flat[i] = v + h;
            const double up = loss().item<double>();
            flat[i] = v - h;
            const double down = loss().item<double>();
            flat[i] = v;
            const double fd = (up - down) / (2 * h);
            worst = std::max(worst, std::fabs(grad.view({-1})[i].item<double>() - fd) /
                                        std::max(1.0, std::fabs(fd)));
        }
    }
    return worst;
}

} // namespace posatlas::lab
