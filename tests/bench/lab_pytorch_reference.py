#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lab's default model written in PyTorch (Python, eager), against posatlas-lab, in one run.

  tests/bench/lab_pytorch_reference.py build/app/posatlas-lab [--steps 300] [--threads 1]

Both train the same network for the same number of steps with one thread each, one after the other, and
the script prints each one's steps per second and their ratio (> 1: the lab is faster). The PyTorch model
is what a PyTorch user would write for core/lab/lab_model_torch.cpp's: a decoder-only transformer, 2
layers x d_model 64, 4 heads, pre-LayerNorm, GELU MLP of 4 x d_model, RoPE (theta 10000, half pairing) on
queries and keys, causal softmax attention, untied output head; AdamW (betas 0.9, 0.98, weight decay 0.01
on the matrices), linear warm-up and cosine decay, gradient clipping at 1.0; batch 32 of length 32 from
the copy task's shape (half of each sequence is answer tokens: the loss and the accuracy are taken there).
Its batches are random tokens (the task's logic is not what is timed). It needs Debian's python3-torch
(`make bench` installs it); without it the script says so and exits 0.
"""
import argparse
import math
import re
import subprocess
import sys
import tempfile
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("lab_pytorch_reference: python3-torch is not installed; skipped")
    sys.exit(0)

LAYERS, D, HEADS, MLP, ALPHABET, LENGTH, BATCH = 2, 64, 4, 4, 16, 32, 32
VOCAB = ALPHABET + 3


class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = torch.nn.LayerNorm(D), torch.nn.LayerNorm(D)
        self.wq, self.wk, self.wv, self.wo = (torch.nn.Linear(D, D, bias=False) for _ in range(4))
        self.fc1, self.fc2 = torch.nn.Linear(D, D * MLP), torch.nn.Linear(D * MLP, D)

    def forward(self, x, cos, sin, mask):
        b, n, _ = x.shape
        h = self.ln1(x)
        q, k, v = (w(h).view(b, n, HEADS, D // HEADS).transpose(1, 2) for w in (self.wq, self.wk, self.wv))
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(D // HEADS)
        att = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1) @ v
        x = x + self.wo(att.transpose(1, 2).reshape(b, n, D))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def rotate(x, cos, sin):
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, D)
        self.layers = torch.nn.ModuleList(Layer() for _ in range(LAYERS))
        self.ln_f = torch.nn.LayerNorm(D)
        self.head = torch.nn.Linear(D, VOCAB, bias=False)
        dh = D // HEADS
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, dh, 2, dtype=torch.float64) / dh))
        angles = torch.arange(LENGTH, dtype=torch.float64)[:, None] * inv_freq[None, :]
        self.register_buffer("cos", angles.cos().float())
        self.register_buffer("sin", angles.sin().float())
        self.register_buffer("mask", torch.ones(LENGTH, LENGTH, dtype=torch.bool).triu(1))

    def forward(self, tokens):
        x = self.emb(tokens)
        for layer in self.layers:
            x = layer(x, self.cos, self.sin, self.mask)
        return self.head(self.ln_f(x))


def pytorch_steps_per_second(steps, threads, warmup=20):
    torch.manual_seed(0)
    torch.set_num_threads(threads)
    model = Model()
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and not n.startswith("emb")]
    keep = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and not n.startswith("emb"))]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": keep, "weight_decay": 0.0}],
                            lr=3e-3, betas=(0.9, 0.98))
    total = steps + warmup
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / 100 if s < 100 else 0.5 * (1 + math.cos(math.pi * (s - 100) / (total - 100))))
    answer = torch.zeros(BATCH, LENGTH, dtype=torch.bool)
    answer[:, LENGTH // 2:] = True
    start = None
    for step in range(total):
        if step == warmup:
            start = time.perf_counter()
        tokens = torch.randint(0, VOCAB, (BATCH, LENGTH))
        target = torch.randint(0, VOCAB, (BATCH, LENGTH))
        logits = model(tokens)[answer]
        loss = F.cross_entropy(logits, target[answer])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        (logits.argmax(-1) == target[answer]).sum().item()  # the accuracy, read every step as the lab does
    return steps / (time.perf_counter() - start)


def lab_steps_per_second(lab, steps, threads):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([lab, "train", "--task", "copy", "--method", "rope", "--steps", str(steps),
                            "--threads", str(threads), "--out", tmp + "/run", "--quiet"],
                           capture_output=True, text=True, check=True)
    return float(re.search(r"\(([0-9.]+) steps/s\)", p.stdout).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lab", help="the posatlas-lab program")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    lab = lab_steps_per_second(args.lab, args.steps, args.threads)
    reference = pytorch_steps_per_second(args.steps, args.threads)
    print(f"posatlas-lab {lab:.1f} steps/s, PyTorch {torch.__version__} eager {reference:.1f} steps/s: "
          f"{lab / reference:.2f}x ({args.steps} steps, {args.threads} thread(s))")


if __name__ == "__main__":
    main()
