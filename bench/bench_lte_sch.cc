/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Transport-block decoding throughput (the lte-sch family): a 20 MHz 2x2 LTE
// cell at its peak, per 1 ms subframe two codewords of TBS 75376 at 64-QAM
// (G = 86400 each), 150.75 Mbit/s of TB bits, as many cells at once as a
// launch holds; and a mixed subframe (one TBS 75376 plus 30 small TBs of
// mixed size and redundancy version). The LLRs are BPSK per coded bit over
// AWGN at Es/N0 (as the srsRAN peer makes them), scrambled as sent.
//
//   --gpu (default)  kernel only (the TBs resident on the GPU), and the turbo
//                    kernel alone on the same code blocks; then end to end
//                    through the pipeline (host to host), float32 and int8
//                    LLRs; and the mixed subframe end to end.
//   --slots=N        with --gpu: batches in flight end to end (4)
//   --cpu            cpu-sch on one worker thread, then the peer
//                    srsran_dlsch_bench (--peer PATH) on the same core in
//                    the same run: with all iterations run (Es/N0 3 dB, no
//                    TB passes) and with CRC early stop at --esn0-et. The
//                    peer's iteration limit is in srsRAN's half iterations
//                    (--peer-half-iterations, default 12: our 6 full ones;
//                    a list runs it once per value).
//   --devices        1, 2, 4, 8 and all GPUs in one run (bench_devices.h),
//                    6 full iterations at Es/N0 --esn0 (3 dB): kernel-bound
//                    (each GPU its own resident --cells cells, 2 TBs each,
//                    the launches of all GPUs timed together over about half
//                    a second, each GPU launched on by a thread of its own;
//                    printed besides: one thread launching on every GPU in
//                    turn, and the host time per launch of each GPU) and
//                    end to end, int8 LLRs, through one
//                    pipeline over the GPUs (the producer writing each TB
//                    into the staging in place, batches of 2 x --cells TBs,
//                    --slots per GPU, 128 batches per GPU timed, 32 with
//                    --quick; the caller
//                    launching, then --device-threads N threads per GPU,
//                    default 1), with the host's topology, links and copy
//                    rate (bench_host_survey.h), per device where each
//                    end-to-end run spent its time, and each figure's ratio
//                    to linear.
// Each figure is checked: every TB came out, outputs equal the CPU twin's
// (cpu-sch with the bit-exact turbo twin) for the same inputs, TBs that pass
// their CRC equal what was sent; the figure is not above its bound (PCIe
// measured in the run; the GPU's issue and memory; the CPU's issue).
#include "bench/bench_checks.h"
#include "bench/bench_devices.h"
#ifdef GPURX_HAVE_CUDA
#include "bench/bench_host_survey.h"
#endif
#include "pipeline/backend.h"
#include "cuda/host_pinning.h"
#include "pipeline/batch_pipeline.h"
#include "sch/sch_batch.h"
#include "sch/sch_encoder.h"
#include "sch/sch_frame.h"
#include "sch/sch_implementations.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"
#include "common/llr_int8.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace gr::gpurx;
using namespace gr::gpurx::core;

namespace {

constexpr int CELL_TBS = 75376, CELL_G = 86400, CELL_QM = 6;
constexpr double CELL_MBPS = 2.0 * CELL_TBS / 1e3; // two codewords per ms

struct tb_case {
    sch::tb_request req;
    sch::frame_params params;
    std::vector<uint8_t> bits;
    std::vector<float> llr;
    std::vector<int8_t> llr8;
};

std::vector<tb_case> make_cases(const std::vector<sch::tb_request>& reqs, double esn0_db, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> gauss;
    const double sigma = std::sqrt(1.0 / (2.0 * std::pow(10.0, esn0_db / 10.0)));
    sch::sch_encoder enc;
    std::vector<tb_case> v;
    for (const auto& r : reqs) {
        tb_case c;
        c.req = r;
        c.params = sch::frame_params_of(r);
        c.bits.resize(size_t(r.tbs));
        for (auto& b : c.bits)
            b = uint8_t(rng() & 1u);
        const auto coded = enc.encode(c.bits.data(), c.bits.size(), r);
        for (auto b : coded) {
            const double y = (b ? 1.0 : -1.0) + sigma * gauss(rng);
            const float l = float(2.0 * y / (sigma * sigma));
            c.llr.push_back(l);
            c.llr8.push_back(llr_to_int8(l));
        }
        v.push_back(std::move(c));
    }
    return v;
}

sch::tb_request cell_request(int rnti, int codeword)
{
    sch::tb_request r;
    r.tbs = CELL_TBS;
    r.g = CELL_G;
    r.qm = CELL_QM;
    r.rnti = rnti;
    r.codeword = codeword;
    r.cell_id = 1;
    r.subframe = rnti % 10;
    return r;
}

// One large TB and 30 small ones, mixed rv (the small ones at rates their rv decodes).
std::vector<sch::tb_request> mixed_subframe()
{
    std::vector<sch::tb_request> v{ cell_request(100, 0) };
    const int small[] = { 256, 1000, 2216, 4008, 6200, 328, 1544, 3112, 5160, 776 };
    for (int i = 0; i < 30; i++) {
        sch::tb_request r;
        r.tbs = small[i % 10];
        r.qm = 2 << (i % 3); // 2, 4, 8
        if (r.qm == 8)
            r.qm = 6;
        const int g = 3 * r.tbs;
        r.g = ((g + r.qm - 1) / r.qm) * r.qm;
        r.rv = (i / 3) % 4;
        r.rnti = 200 + i;
        r.cell_id = 1;
        r.subframe = i % 10;
        v.push_back(r);
    }
    return v;
}

struct outcome {
    std::vector<std::vector<uint8_t>> bits;
    std::vector<sch::frame_result> res;
};

//! The pipeline configuration of cfg's TBs, float32 LLRs in at most.
pipeline_config sch_pipeline_config(const sch_config& cfg, size_t max_batch, size_t threads, size_t slots)
{
    pipeline_config pc;
    pc.types = sch::frame_types_of();
    pc.max_batch = max_batch;
    pc.slots = slots;
    pc.cpu_threads = threads;
    // Full batches: timed_pipeline drains at its end, so none waits for this.
    pc.flush_timeout = std::chrono::microseconds(100000);
    pc.max_in_bytes = size_t(cfg.max_g) * sizeof(float);
    pc.max_out_bytes = size_t(cfg.max_tbs);
    return pc;
}

std::unique_ptr<batch_pipeline>
make_sch_pipeline(sch_config cfg, backend_kind b, size_t max_batch, size_t threads, size_t slots)
{
    auto reg = sch_registry();
    const auto choice = reg.choose(cfg);
    backend_choice where{ b, b == backend_kind::cuda ? std::vector<int>{ 0 } : std::vector<int>{}, "bench" };
    return make_pipeline(reg.factories(cfg, choice), where, sch_pipeline_config(cfg, max_batch, threads, slots));
}

// Submits cases [i % n] for frames; int8 or float input.
size_t submit_case(batch_pipeline& p, const tb_case& c, bool int8, int slot)
{
    auto params = c.params;
    params.input = int8 ? turbo::INPUT_INT8 : turbo::INPUT_FLOAT32;
    params.harq_slot = slot;
    params.combine = 0;
    if (int8)
        p.submit(c.llr8.data(), c.llr8.size(), size_t(c.params.tbs), &params);
    else
        p.submit(c.llr.data(), c.llr.size() * sizeof(float), size_t(c.params.tbs), &params);
    return 1;
}

// The CPU twin's outputs of the cases (the reference every figure is checked against).
outcome reference(const std::vector<tb_case>& cases, sch_config cfg, bool int8)
{
    cfg.turbo.implementation = "cuda-fixed16-dpx"; // its CPU side: the bit-exact twin
    cfg.harq_buffers = 0;
    auto p = make_sch_pipeline(cfg, backend_kind::cpu, 8, 0, 2);
    outcome o;
    for (const auto& c : cases) {
        submit_case(*p, c, int8, -1);
        p->drain();
        const auto* f = p->front(true);
        o.bits.emplace_back(f->data, f->data + f->out_bytes);
        o.res.push_back(*f->result_as<sch::frame_result>());
        p->pop();
    }
    return o;
}

// Checks one output against the reference; counts CRC passes. Every TB's
// results (CRCs, iterations) are compared; its bits every \p bits_every TBs
// (comparing 75 KB per TB on the one thread that also feeds the pipeline
// would make the benchmark measure memcmp).
struct checker {
    const std::vector<tb_case>& cases;
    const outcome& ref;
    size_t bits_every = 1;
    size_t frames = 0, passed = 0, compared = 0;
    void operator()(const completed_frame& f, size_t k)
    {
        const size_t i = frames;
        if (f.rejected)
            bench::fail("TB " + std::to_string(i) + " was rejected");
        const auto& r = *f.result_as<sch::frame_result>();
        if (r.crc_ok != ref.res[k].crc_ok || r.cb_crc != ref.res[k].cb_crc || r.iterations != ref.res[k].iterations)
            bench::fail("TB " + std::to_string(i) + "'s CRCs or iterations differ from the CPU twin's");
        if (i % bits_every == 0) {
            if (std::memcmp(f.data, ref.bits[k].data(), ref.bits[k].size()) != 0)
                bench::fail("TB " + std::to_string(i) + "'s bits differ from the CPU twin's decoding");
            if (r.crc_ok && std::memcmp(f.data, cases[k].bits.data(), cases[k].bits.size()) != 0)
                bench::fail("TB " + std::to_string(i) + " passed its CRC with wrong bits");
            compared++;
        }
        frames++;
        passed += r.crc_ok;
    }
};

double info_bits(const std::vector<tb_case>& cases, size_t n)
{
    double b = 0;
    for (size_t i = 0; i < n; i++)
        b += cases[i % cases.size()].params.tbs;
    return b;
}

struct run_result {
    double gbps, bound, bler;
    size_t frames, compared;
};

/*!
 * Host to host through the pipeline. Staged: each TB's LLRs are copied into
 * the pipeline's pinned staging (what a block does with a PDU). In place:
 * the LLRs already lie in pinned memory, a batch's back to back, and go to
 * the GPU by DMA from there (submit_many_in_place, one TB per call: each
 * has its own parameters); needs TBs of one G.
 */
size_t g_slots = 4; // --slots: batches in flight end to end (4: one more than the blocks' default pays here)

run_result end_to_end(const std::vector<tb_case>& cases, const sch_config& cfg, bool int8, bool in_place,
                      size_t total, size_t max_batch, const bench::link_rates& link, const std::string& what)
{
    const auto ref = reference(cases, cfg, int8);
    auto p = make_sch_pipeline(cfg, backend_kind::cuda, max_batch, 0, g_slots);
    checker chk{ cases, ref, 16 };
    const size_t warm = max_batch * 2;
    // In place: max_batch TBs' inputs back to back, case j at j mod cases.
    const size_t in_bytes = size_t(cases[0].params.G) * (int8 ? 1 : sizeof(float));
    const size_t stride = bench::align16(in_bytes);
    std::vector<uint8_t> arena;
    std::unique_ptr<pinned_host_region> pin;
    std::vector<sch::frame_params> params;
    if (in_place) {
        arena.resize(stride * max_batch);
        for (size_t j = 0; j < max_batch; j++) {
            const auto& c = cases[j % cases.size()];
            if (size_t(c.params.G) * (int8 ? 1 : sizeof(float)) != in_bytes)
                bench::fail(what + ": in place needs TBs of one G");
            std::memcpy(arena.data() + j * stride, int8 ? static_cast<const void*>(c.llr8.data()) : c.llr.data(),
                        in_bytes);
            auto q = c.params;
            q.input = int8 ? turbo::INPUT_INT8 : turbo::INPUT_FLOAT32;
            params.push_back(q);
        }
        pin = std::make_unique<pinned_host_region>(arena.data(), arena.size());
    }
    // Frame j in place is arena slot j mod max_batch, holding case (j mod max_batch) mod cases.
    auto case_of = [&](size_t j) { return in_place ? (j % max_batch) % cases.size() : j % cases.size(); };
    const double secs = bench::timed_pipeline(
        *p, warm, total, max_batch,
        [&](batch_pipeline& pipe, size_t first, size_t) {
            if (!in_place)
                return submit_case(pipe, cases[first % cases.size()], int8, -1);
            const size_t j = first % max_batch;
            return pipe.submit_many_in_place(arena.data() + j * stride, in_bytes, size_t(params[j].tbs),
                                             &params[j], 1);
        },
        [&](const completed_frame& f, size_t i, bool timed) {
            if (timed)
                chk(f, case_of(i));
            else
                checker{ cases, ref, 1 }(f, case_of(i)); // the warm-up: every TB's bits
        });
    if (chk.frames != total)
        bench::fail(what + ": " + std::to_string(chk.frames) + " of " + std::to_string(total) + " TBs checked");
    // The bound: the slowest direction of PCIe for the mean TB.
    double in = 0, out = 0;
    for (const auto& c : cases) {
        in += double(c.params.G) * (int8 ? 1 : 4);
        out += c.params.tbs;
    }
    in /= double(cases.size());
    out /= double(cases.size());
    const auto fb = bench::pipeline_frame_bytes(sch::frame_types_of(), size_t(in), size_t(out));
    const double bits = info_bits(cases, total);
    const double bound = bench::link_bound_gbps({ link }, bits / double(total), fb);
    run_result r;
    r.gbps = bench::check_bound(what, bits / secs / 1e9, bound, "Gbit/s", bench::link_why(fb));
    r.bound = bound;
    r.bler = 1.0 - double(chk.passed) / double(chk.frames);
    r.frames = chk.frames;
    r.compared = chk.compared;
    return r;
}

#ifdef GPURX_HAVE_CUDA
void ck(cudaError_t e, const char* what) { bench::cuda_ok(e, what); }

// The TBs resident on one GPU, decoded by the cuda-sch kernel again and again.
struct resident {
    int device = 0;
    std::unique_ptr<cuda_kernel> k;
    std::vector<frame_desc> fd;
    std::vector<sch::frame_params> par;
    void *dfd = nullptr, *dpar = nullptr, *din = nullptr, *dout = nullptr, *dres = nullptr, *dscr = nullptr;
    size_t n = 0, in_bytes = 0, out_bytes = 0;
    cudaStream_t st{};

    resident(const std::vector<tb_case>& cases, size_t ntb, const sch_config& cfg, int device_ = 0)
        : device(device_)
    {
        ck(cudaSetDevice(device), "set device");
        auto reg = sch_registry();
        auto c = cfg;
        const auto choice = reg.choose(c);
        k = reg.factories(c, choice).cuda(device);
        n = ntb;
        std::vector<uint8_t> in;
        for (size_t i = 0; i < n; i++) {
            const auto& t = cases[i % cases.size()];
            frame_desc d{ in.size(), out_bytes, uint32_t(t.llr8.size()), uint32_t(t.params.tbs) };
            fd.push_back(d);
            auto p = t.params;
            p.input = turbo::INPUT_INT8;
            par.push_back(p);
            in.insert(in.end(), t.llr8.begin(), t.llr8.end());
            in.resize(bench::align16(in.size()));
            out_bytes += bench::align16(size_t(t.params.tbs));
        }
        in_bytes = in.size();
        ck(cudaStreamCreate(&st), "stream");
        ck(cudaMalloc(&dfd, n * sizeof(frame_desc)), "malloc");
        ck(cudaMalloc(&dpar, n * sizeof(sch::frame_params)), "malloc");
        ck(cudaMalloc(&din, in_bytes), "malloc");
        ck(cudaMalloc(&dout, out_bytes), "malloc");
        ck(cudaMalloc(&dres, n * sizeof(sch::frame_result)), "malloc");
        ck(cudaMalloc(&dscr, k->scratch_bytes(n)), "malloc scratch");
        ck(cudaMemcpy(dfd, fd.data(), n * sizeof(frame_desc), cudaMemcpyHostToDevice), "copy");
        ck(cudaMemcpy(dpar, par.data(), n * sizeof(sch::frame_params), cudaMemcpyHostToDevice), "copy");
        ck(cudaMemcpy(din, in.data(), in_bytes, cudaMemcpyHostToDevice), "copy");
    }
    ~resident()
    {
        cudaSetDevice(device);
        cudaStreamDestroy(st);
        for (void* p : { dfd, dpar, din, dout, dres, dscr })
            cudaFree(p);
    }
    batch_view device_view() const
    {
        batch_view v{};
        v.frames = static_cast<const frame_desc*>(dfd);
        v.nframes = n;
        v.params = dpar;
        v.in = static_cast<const uint8_t*>(din);
        v.out = static_cast<uint8_t*>(dout);
        v.results = dres;
        v.scratch = static_cast<uint8_t*>(dscr);
        return v;
    }
    batch_view host_view() const
    {
        batch_view v{};
        v.frames = fd.data();
        v.nframes = n;
        v.params = par.data();
        return v;
    }
    //! Median ms of one launch over reps.
    double time(int reps)
    {
        ck(cudaSetDevice(device), "set device");
        cudaEvent_t e0, e1;
        ck(cudaEventCreate(&e0), "event");
        ck(cudaEventCreate(&e1), "event");
        std::vector<float> t;
        for (int r = 0; r < reps; r++) {
            ck(cudaEventRecord(e0, st), "record");
            k->enqueue(device_view(), host_view(), st);
            ck(cudaEventRecord(e1, st), "record");
            ck(cudaEventSynchronize(e1), "sync");
            float ms;
            ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
            t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        return t[t.size() / 2];
    }
    //! Enqueues one launch, without waiting.
    void launch()
    {
        ck(cudaSetDevice(device), "set device");
        k->enqueue(device_view(), host_view(), st);
    }
    //! Waits for what is enqueued.
    void finish()
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaStreamSynchronize(st), "sync");
    }
    //! Clears the outputs and results on the stream: what check() finds
    //! after the launches enqueued next, they wrote.
    void clear()
    {
        ck(cudaSetDevice(device), "set device");
        ck(cudaMemsetAsync(dres, 0xff, n * sizeof(sch::frame_result), st), "memset");
        ck(cudaMemsetAsync(dout, 0xff, out_bytes, st), "memset");
    }
    void check(const std::vector<tb_case>& cases, const outcome& ref, const std::string& what)
    {
        finish();
        std::vector<sch::frame_result> res(n);
        std::vector<uint8_t> out(out_bytes);
        ck(cudaMemcpy(res.data(), dres, n * sizeof(sch::frame_result), cudaMemcpyDeviceToHost), "copy");
        ck(cudaMemcpy(out.data(), dout, out_bytes, cudaMemcpyDeviceToHost), "copy");
        for (size_t i = 0; i < n; i++) {
            const size_t c = i % cases.size();
            if (std::memcmp(out.data() + fd[i].out_offset, ref.bits[c].data(), ref.bits[c].size()) != 0 ||
                res[i].crc_ok != ref.res[c].crc_ok || res[i].iterations != ref.res[c].iterations)
                bench::fail(what + ": TB " + std::to_string(i) + " differs from the CPU twin's decoding");
        }
    }
};

// The turbo kernel alone on the code blocks the last sch launch set up (its
// scratch holds their int8 inputs, descriptors and parameters).
double turbo_alone_ms(resident& r, const sch_config& cfg, int reps)
{
    turbo_config t = cfg.turbo_for(false);
    auto treg = turbo_registry(1.0f / 8.0f);
    const auto choice = treg.choose(t);
    auto tk = treg.factories(t, choice).cuda(0);
    const size_t cbs = size_t(r.n) * size_t(sch::segment(CELL_TBS).C);
    const sch::batch_layout L(r.n, size_t(cfg.max_code_blocks()), size_t(cfg.max_g),
                              tk->scratch_bytes(r.n * size_t(cfg.max_code_blocks())));
    std::vector<frame_desc> hd(cbs);
    std::vector<turbo::frame_params> hp(cbs);
    sch::cb_list list;
    list.build(r.par.data(), r.n);
    for (size_t i = 0; i < cbs; i++)
        sch::cb_turbo_frame(r.par[list.entries[i].tb], list.entries[i], i, L.cb_out_stride, hd[i], hp[i]);
    auto* s = static_cast<uint8_t*>(r.dscr);
    batch_view d{};
    d.frames = reinterpret_cast<const frame_desc*>(s + L.cb_desc);
    d.nframes = cbs;
    d.params = s + L.cb_params;
    d.in = s + L.cb_in;
    d.out = s + L.cb_out;
    d.results = s + L.cb_results;
    d.scratch = s + L.turbo_scratch;
    batch_view h{};
    h.frames = hd.data();
    h.nframes = cbs;
    h.params = hp.data();
    cudaEvent_t e0, e1;
    ck(cudaEventCreate(&e0), "event");
    ck(cudaEventCreate(&e1), "event");
    std::vector<float> t2;
    for (int k = 0; k < reps; k++) {
        ck(cudaEventRecord(e0, r.st), "record");
        tk->enqueue(d, h, r.st);
        ck(cudaEventRecord(e1, r.st), "record");
        ck(cudaEventSynchronize(e1), "sync");
        float ms;
        ck(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
        t2.push_back(ms);
    }
    std::sort(t2.begin(), t2.end());
    return t2[t2.size() / 2];
}
#endif

struct options {
    bool cpu = false;
    std::string peer;
    int cells = 100;
    double esn0 = 3.0, esn0_et = 4.5;
    double seconds = 5;
    //! The peer's max_iterations, each run in turn: srsRAN counts half
    //! iterations (one constituent decoder per srsran_tdec_iteration, its
    //! CRC checked after each), so 12 is our 6 full ones.
    std::vector<int> peer_half_iterations{ 12 };
    bench::devices_options devices; //!< --devices [--device-threads N]
    bool quick = false;             //!< --quick: with --devices, a quarter of the batches
};

options parse(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto val = [&](const char* name) -> std::string {
            const std::string p = std::string(name) + "=";
            if (a.rfind(p, 0) == 0)
                return a.substr(p.size());
            return {};
        };
        if (a == "--cpu")
            o.cpu = true;
        else if (a == "--quick")
            o.quick = true;
        else if (a == "--gpu")
            o.cpu = false;
        else if (!val("--peer").empty())
            o.peer = val("--peer");
        else if (!val("--cells").empty())
            o.cells = std::stoi(val("--cells"));
        else if (!val("--slots").empty())
            g_slots = size_t(std::stoi(val("--slots")));
        else if (!val("--esn0").empty())
            o.esn0 = std::stod(val("--esn0"));
        else if (!val("--esn0-et").empty())
            o.esn0_et = std::stod(val("--esn0-et"));
        else if (!val("--seconds").empty())
            o.seconds = std::stod(val("--seconds"));
        else if (!val("--peer-half-iterations").empty()) {
            o.peer_half_iterations.clear();
            std::string l = val("--peer-half-iterations");
            for (size_t at = 0; at < l.size();) {
                const size_t comma = std::min(l.find(',', at), l.size());
                o.peer_half_iterations.push_back(std::stoi(l.substr(at, comma - at)));
                at = comma + 1;
            }
        } else if (bench::parse_devices(o.devices, argc, argv, i))
            ;
        else
            bench::fail("unknown argument " + a +
                        " (--gpu [--slots=N] | --devices [--device-threads=N] [--slots=N] [--quick] | --cpu [--peer=PATH] [--peer-half-iterations=N[,N..]] [--seconds=S], --cells=N,"
                        " --esn0=dB, --esn0-et=dB)");
    }
    if (o.cells < 1 || o.cells > 1000)
        bench::fail("--cells=" + std::to_string(o.cells) + ": must be in 1..1000");
    return o;
}

std::vector<sch::tb_request> cell_requests(int n)
{
    std::vector<sch::tb_request> v;
    for (int i = 0; i < n; i++)
        v.push_back(cell_request(i % 16 + 1, i % 2));
    return v;
}

// srsRAN's DL-SCH decoder on this core: its TB Mbit/s, parsed from its output.
double peer_mbps(const std::string& peer, double seconds, double esn0, int half_iterations)
{
    char cmd[512];
    std::snprintf(cmd, sizeof cmd, "%s 1 %g %d %d %d %g %d 2>&1", peer.c_str(), seconds, CELL_TBS, CELL_QM, CELL_G,
                  esn0, half_iterations);
    FILE* f = popen(cmd, "r");
    if (!f)
        bench::fail("cannot run " + peer);
    char line[512];
    double mbps = -1;
    while (std::fgets(line, sizeof line, f)) {
        std::fputs(line, stdout);
        if (const char* p = std::strstr(line, "TOTAL Mbit/s (transport block bits):"))
            mbps = std::atof(p + std::strlen("TOTAL Mbit/s (transport block bits):"));
    }
    if (pclose(f) != 0 || mbps <= 0)
        bench::fail("the peer " + peer + " gave no figure");
    return mbps;
}

void run_cpu(const options& o)
{
    std::printf("cpu-sch on one worker thread against %s on the same core (pin with taskset)\n",
                o.peer.empty() ? "no peer (--peer=PATH)" : o.peer.c_str());
    const auto limits = bench::cpu_limits::of_this_machine();
    for (int et = 0; et < 2; et++) {
        const double esn0 = et ? o.esn0_et : o.esn0;
        auto cases = make_cases(cell_requests(8), esn0, 17);
        sch_config cfg;
        cfg.harq_buffers = 0;
        cfg.early_termination = et == 1;
        // Float LLRs, as the peer's int16 ones carry more than int8.
        auto p = make_sch_pipeline(cfg, backend_kind::cpu, 1, 1, 1);
        // The default CPU turbo kernel is not the twin's bit for bit: every
        // TB must come out, and one that passes its CRC must be what was sent.
        size_t total = 8, passed = 0, seen = 0;
        double secs = 0;
        for (;;) {
            passed = seen = 0;
            secs = bench::timed_pipeline(
                *p, 2, total, 1,
                [&](batch_pipeline& pipe, size_t first, size_t) {
                    return submit_case(pipe, cases[first % cases.size()], false, -1);
                },
                [&](const completed_frame& f, size_t i, bool timed) {
                    const auto& c = cases[i % cases.size()];
                    const auto& r = *f.result_as<sch::frame_result>();
                    if (f.rejected || (r.crc_ok && std::memcmp(f.data, c.bits.data(), c.bits.size()) != 0))
                        bench::fail("cpu-sch: TB " + std::to_string(i) + " rejected or passed with wrong bits");
                    if (timed) {
                        seen++;
                        passed += r.crc_ok;
                    }
                });
            if (seen != total)
                bench::fail("cpu-sch: " + std::to_string(seen) + " of " + std::to_string(total) + " TBs out");
            if (secs >= o.seconds || total >= 100000)
                break;
            total = size_t(double(total) * std::max(2.0, o.seconds / std::max(secs, 1e-3)));
        }
        const double gbps = bench::check_bound(
            "cpu-sch", info_bits(cases, total) / secs / 1e9, limits.bound_gbps(1, 1.0), "Gbit/s",
            limits.why(1, 1.0));
        std::printf("| cpu-sch, Es/N0 %.1f dB, %s | %.1f Mbit/s | %zu TBs, %zu passed their CRC |\n", esn0,
                    et ? "CRC early stop" : "all 6 iterations", gbps * 1e3, total, passed);
        // The peer always stops a code block at its CRC (checked after each
        // half iteration); at 3 dB few pass, so it runs nearly all of them.
        if (!o.peer.empty())
            for (int h : o.peer_half_iterations) {
                const double peer = peer_mbps(o.peer, o.seconds, esn0, h);
                std::printf("| srsRAN DL-SCH, same core, Es/N0 %.1f dB, at most %d half iterations (%g full) | %.1f "
                            "Mbit/s | cpu-sch / srsRAN %.2f |\n",
                            esn0, h, h / 2.0, peer, gbps * 1e3 / peer);
            }
    }
}

#ifdef GPURX_HAVE_CUDA
void run_gpu(const options& o)
{
    const auto link = bench::measure_link(0);
    const auto lim = bench::gpu_limits::of(0);
    cudaDeviceProp prop{};
    ck(cudaGetDeviceProperties(&prop, 0), "properties");
    std::printf("device: %s; %s\n", prop.name, link.describe().c_str());
    const size_t ntb = size_t(2 * o.cells);
    for (int et = 0; et < 2; et++) {
        const double esn0 = et ? o.esn0_et : o.esn0;
        sch_config cfg;
        cfg.harq_buffers = 0;
        cfg.early_termination = et == 1;
        auto cases = make_cases(cell_requests(32), esn0, 5);
        const auto ref8 = reference(cases, cfg, true);
        const char* mode = et ? "CRC early stop" : "6 full iterations";
        // Kernel only.
        resident r(cases, ntb, cfg);
        r.time(3);
        const double ms = r.time(10);
        r.check(cases, ref8, "kernel only");
        const double bits = info_bits(cases, ntb);
        const double bytes = double(r.in_bytes + r.out_bytes);
        const double instr = 16.0 * 6; // the turbo kernel's floor, per bit and iteration
        const double kb = bench::kernel_bound_gbps(lim, bits, instr, bytes);
        const double kg = bench::check_bound("kernel only", bits / (ms * 1e-3) / 1e9, kb, "Gbit/s",
                                             bench::kernel_why(lim, instr, bytes / bits));
        const double tms = turbo_alone_ms(r, cfg, 10);
        const double tg = bits / (tms * 1e-3) / 1e9;
        std::printf("\n%s, Es/N0 %.1f dB, %d cells (%zu TBs of %d bits) per launch\n", mode, esn0, o.cells, ntb,
                    CELL_TBS);
        std::printf("| measure | TB Gbit/s | cells in real time | against |\n|---|---|---|---|\n");
        std::printf("| kernel only, int8 | %.2f | %.0f | %.3f of the turbo kernel alone on the same code blocks "
                    "(%.2f Gbit/s); bound %.1f |\n",
                    kg, kg * 1e3 / CELL_MBPS, kg / tg, tg, kb);
        for (int in_place = 1; in_place >= 0; in_place--)
            for (int int8 = 1; int8 >= 0; int8--) {
                const std::string name = std::string("end to end, ") + (int8 ? "int8" : "float32") + " LLRs, " +
                                         (in_place ? "in place" : "staged");
                const auto rr = end_to_end(cases, cfg, int8 == 1, in_place == 1, ntb * 10, ntb, link, name);
                std::printf("| %s | %.2f | %.0f | %.2f of the PCIe bound (%.1f); %.2f of kernel only; BLER %.3f "
                            "over %zu TBs (bits of %zu compared) |\n",
                            name.c_str(), rr.gbps, rr.gbps * 1e3 / CELL_MBPS, rr.gbps / rr.bound, rr.bound,
                            rr.gbps / kg, rr.bler, rr.frames, rr.compared);
            }
        auto mixed = make_cases(mixed_subframe(), et ? 20.0 : esn0, 9);
        const auto rm = end_to_end(mixed, cfg, true, false, mixed.size() * o.cells,
                                   mixed.size() * size_t(std::min(o.cells, 16)), link, "mixed subframe");
        std::printf("| mixed subframe (1 x 75376 + 30 small, rv 0-3), int8, end to end, staged | %.2f | %.0f subframes/ms "
                    "| %.2f of the PCIe bound; BLER %.3f |\n",
                    rm.gbps, rm.gbps * 1e9 / (info_bits(mixed, mixed.size()) * 1e3), rm.gbps / rm.bound, rm.bler);
    }
}

// ------------------------------------------------ several GPUs (--devices)

/*!
 * Kernel-bound TB Gbit/s of several GPUs at once: each decodes its own
 * resident \p ntb TBs; the launches of all of them are timed together (wall
 * time, about half a second: bench::reps_for the first GPU's median
 * launch), each GPU driven by a thread of its own (the figure returned), and
 * also by one thread launching on every GPU in turn, as the other --devices
 * benchmarks time theirs. A cuda-sch launch costs the host more than other
 * kernels' (it lays out the batch's code blocks, looks up their gather
 * tables and uploads their slots, then makes seven launches): one thread
 * can enqueue only so many per second for all the GPUs together, and at
 * four H100s that, not the GPUs, bounded the figure. Printed per GPU count:
 * both figures and the host time per launch of each GPU. Checked: every TB
 * of each GPU's last launch of each run as the CPU twin (\p ref), and the
 * figures not above the sum of the GPUs' kernel bounds.
 */
bench::device_figure multi_kernel_gbps(const std::vector<int>& devices, const std::vector<tb_case>& cases,
                                       size_t ntb, const sch_config& cfg, const outcome& ref, const std::string& what)
{
    std::vector<std::unique_ptr<resident>> b;
    for (int d : devices)
        b.push_back(std::make_unique<resident>(cases, ntb, cfg, d));
    // A launch on each GPU first (its kernels load on first use), outside the timed window.
    for (auto& x : b)
        x->launch();
    for (auto& x : b)
        x->finish();
    const double alone_ms = b[0]->time(3);
    const int reps = bench::reps_for(alone_ms * 1e-3);
    const double bits = info_bits(cases, ntb);
    const double instr = 16.0 * 6; // the turbo kernel's floor, per bit and iteration
    double bound = 0;
    std::string why;
    for (auto& x : b) {
        const auto g = bench::gpu_limits::of(x->device);
        const double bytes = double(x->in_bytes + x->out_bytes);
        bound += bench::kernel_bound_gbps(g, bits, instr, bytes);
        why = bench::kernel_why(g, instr, bytes / bits) + ", summed over " + std::to_string(devices.size()) +
              " device(s)";
    }
    auto launch = [&](size_t i) { b[i]->launch(); };
    auto finish = [&](size_t i) { b[i]->finish(); };
    // One run: outputs cleared first, checked after; Gbit/s and the host
    // microseconds per launch of each GPU.
    auto run = [&](bool threaded, const std::string& how, std::vector<double>& us) {
        for (auto& x : b) {
            x->clear();
            x->finish();
        }
        std::vector<double> host;
        const double secs = threaded ? bench::timed_launches_threaded(b.size(), reps, launch, finish, &host)
                                     : bench::timed_launches(b.size(), reps, launch, finish, &host);
        for (auto& x : b)
            x->check(cases, ref, what + ", " + how + ", device " + std::to_string(x->device));
        us.clear();
        for (double h : host)
            us.push_back(1e6 * h / reps);
        return bench::check_bound(what + ", " + how, bits * reps * double(devices.size()) / secs / 1e9, bound,
                                  "Gbit/s", why);
    };
    std::vector<double> us_one, us_own;
    const double one = run(false, "one thread launches on every GPU", us_one);
    const double own = run(true, "a thread per GPU launches", us_own);
    auto list = [](const std::vector<double>& v) {
        std::string s;
        char t[32];
        for (size_t i = 0; i < v.size(); i++) {
            std::snprintf(t, sizeof t, "%s%.0f", i ? ", " : "", v[i]);
            s += t;
        }
        return s;
    };
    double round_us = 0;
    for (double u : us_one)
        round_us += u;
    std::printf("\n%s: a thread per GPU launches: %.2f Gbit/s (host us per launch, per GPU: %s); one thread "
                "launching on every GPU in turn: %.2f Gbit/s (host us per launch, per GPU: %s; a round of %zu "
                "launches takes that thread %.3f ms, against %.3f ms of kernel per launch on GPU %d alone)\n",
                what.c_str(), own, list(us_own).c_str(), one, list(us_one).c_str(), devices.size(), round_us * 1e-3,
                alone_ms, devices[0]);
    std::fflush(stdout);
    bench::device_figure f;
    f.gbps = own;
    f.bound = bound;
    f.frames = f.compared = ntb * devices.size();
    return f;
}

/*!
 * End to end, int8 LLRs, through one pipeline over \p devices: batches of
 * \p max_batch TBs (g_slots per GPU), \p total TBs timed (whole batches, at
 * least twice the warm-up), the producer writing each TB's LLRs into the
 * staging in place (bench::submit_in_place, one TB per call: each TB has
 * its own parameters, so the booking cannot be batched; completed TBs are
 * taken out a batch at a time). Staging position j holds case j mod the
 * cases, written by the warm-up. Checked: every TB's CRCs and iterations as
 * the CPU twin's, its bits every TB of the warm-up and one timed TB in 61;
 * the figure not above the GPUs' links alone, summed.
 */
bench::device_figure multi_e2e_gbps(const std::vector<tb_case>& cases, const sch_config& cfg, const outcome& ref,
                                    const std::vector<int>& devices, size_t max_batch, size_t total,
                                    size_t device_threads, const std::vector<bench::link_rates>& links,
                                    const std::string& what)
{
    auto reg = sch_registry();
    auto c = cfg;
    const auto choice = reg.choose(c);
    auto pc = sch_pipeline_config(c, max_batch, 0, g_slots);
    const size_t in_bytes = size_t(cases[0].params.G), tbs = size_t(cases[0].params.tbs);
    pc.max_in_bytes = in_bytes; // int8 LLRs
    pc.device_threads = device_threads;
    pc.profile = true;
    std::vector<sch::frame_params> params;
    for (const auto& t : cases) {
        if (size_t(t.params.G) != in_bytes || size_t(t.params.tbs) != tbs)
            bench::fail(what + ": in place needs TBs of one G and TBS");
        auto q = t.params;
        q.input = turbo::INPUT_INT8;
        q.harq_slot = -1;
        q.combine = 0;
        params.push_back(q);
    }
    auto p = make_pipeline(reg.factories(c, choice), { backend_kind::cuda, devices, "bench" }, pc);
    const size_t warm = p->config().slots * max_batch; // the slots of every GPU
    total = std::max(total, 2 * warm);
    total = (total + max_batch - 1) / max_batch * max_batch;
    checker chk{ cases, ref, bench::sample_every };
    const double secs = bench::timed_pipeline(
        *p, warm, total, max_batch,
        [&](batch_pipeline& pipe, size_t in, size_t) {
            return bench::submit_in_place(pipe, in, 1, warm, max_batch, in_bytes, tbs,
                                          &params[(in % warm) % cases.size()], [&](uint8_t* dst, size_t pos) {
                                              std::memcpy(dst, cases[pos % cases.size()].llr8.data(), in_bytes);
                                          });
        },
        [&](const completed_frame& f, size_t i, bool timed) {
            if (f.seq != i)
                bench::fail(what + ": TB " + std::to_string(f.seq) + " came out as number " + std::to_string(i));
            const size_t k = size_t(f.user) % cases.size();
            if (timed)
                chk(f, k);
            else
                checker{ cases, ref, 1 }(f, k); // the warm-up: every TB's bits
        });
    if (chk.frames != total)
        bench::fail(what + ": " + std::to_string(chk.frames) + " of " + std::to_string(total) + " TBs checked");
    const auto fb = bench::pipeline_frame_bytes(sch::frame_types_of(), in_bytes, tbs);
    bench::device_figure r;
    r.bound = bench::link_bound_gbps(links, double(tbs), fb);
    r.gbps = bench::check_bound(what, double(tbs) * double(total) / secs / 1e9, r.bound, "Gbit/s",
                                bench::link_why(fb));
    r.frames = total;
    r.compared = chk.compared;
    r.secs = secs;
    r.stages = p->stats();
    r.device_threads = device_threads;
    return r;
}

//! --devices (see the head of this file).
void run_devices(const options& o)
{
    const auto host = bench::survey_host(core::probe_cuda());
    sch_config cfg;
    cfg.harq_buffers = 0;
    cfg.early_termination = false;
    const auto cases = make_cases(cell_requests(32), o.esn0, 5);
    const auto ref8 = reference(cases, cfg, true);
    const size_t ntb = size_t(2 * o.cells), batches_per_gpu = o.quick ? 32 : 128;
    const size_t threads = o.devices.device_threads > 0 ? size_t(o.devices.device_threads) : 1;
    const auto fb = bench::pipeline_frame_bytes(sch::frame_types_of(), size_t(CELL_G), size_t(CELL_TBS));
    bench::devices_figures fig;
    for (size_t ci = 0; ci < host.counts.size(); ci++) {
        const size_t k = host.counts[ci];
        const std::string tag = std::to_string(k) + " GPU" + (k > 1 ? "s" : "");
        const auto lk = host.links_of(k);
        fig.kern.push_back(multi_kernel_gbps(host.first(k), cases, ntb, cfg, ref8, "kernel-bound, " + tag).gbps);
        const size_t total = batches_per_gpu * ntb * k;
        const auto a = multi_e2e_gbps(cases, cfg, ref8, host.first(k), ntb, total, 0, lk,
                                      "end to end int8, in place, caller launches, " + tag);
        bench::print_stages("end to end int8, in place (begin_frames), the caller launches, " + tag, a, CELL_TBS);
        const auto t = multi_e2e_gbps(cases, cfg, ref8, host.first(k), ntb, total, threads, lk,
                                      "end to end int8, in place, device threads launch, " + tag);
        bench::print_stages("end to end int8, in place (begin_frames), " + std::to_string(threads) +
                                " thread(s) per GPU launch, " + tag,
                            t, CELL_TBS);
        std::printf("TBs timed (bits compared), %s: caller launches %zu (%zu), threads launch %zu (%zu)\n",
                    tag.c_str(), a.frames, a.compared, t.frames, t.compared);
        std::fflush(stdout);
        fig.caller.push_back(a.gbps);
        fig.by_threads.push_back(t.gbps);
        fig.add_bounds(host, ci, lk, CELL_TBS, fb);
    }
    std::printf("\ncuda-sch, 6 full iterations, Es/N0 %.1f dB, TBS %d at 64-QAM (G = %d), int8 LLRs in (%.0f B per "
                "TB over PCIe in, %.0f B out); kernel-bound: %d cells (%zu TBs) per GPU per launch, a thread per GPU "
                "launching; end to end: "
                "batches of %zu TBs, %zu slots per GPU, %zu batches per GPU timed; TB Gbit/s (a cell at its peak: "
                "%.2f Mbit/s); (of linear): k times the 1-GPU figure of the column\n\n",
                o.esn0, CELL_TBS, CELL_G, fb.h2d, fb.d2h, o.cells, ntb, ntb, g_slots, batches_per_gpu, CELL_MBPS);
    std::printf("%s", fig.report(host.counts).c_str());
    std::printf("cells in real time, all GPUs, end to end (the caller launching): ");
    for (size_t i = 0; i < host.counts.size(); i++)
        std::printf("%s%zu GPU(s) %.0f", i ? ", " : "", host.counts[i], fig.caller[i] * 1e3 / CELL_MBPS);
    std::printf("\nhost memory estimate: twice the best copy rate (%.1f GB/s) over the %.0f B a TB moves through "
                "host memory (DMA in and out)\nstage times: CUDA events around each batch's copies and kernel, "
                "profiling on in every end-to-end run above\n",
                host.best_copy, fb.h2d + fb.d2h);
}
#endif

} // namespace

int main(int argc, char** argv)
{
    const options o = parse(argc, argv);
    if (o.devices.on) {
        const std::string why = bench::no_devices_reason(core::probe_cuda());
        if (!why.empty()) {
            std::printf("bench_lte_sch --devices: %s: nothing to measure\n", why.c_str());
            return 0;
        }
#ifdef GPURX_HAVE_CUDA
        run_devices(o);
        return 0;
#endif
    }
    if (o.cpu) {
        run_cpu(o);
        return 0;
    }
#ifdef GPURX_HAVE_CUDA
    run_gpu(o);
    return 0;
#else
    bench::fail("built without CUDA: only --cpu");
#endif
}
