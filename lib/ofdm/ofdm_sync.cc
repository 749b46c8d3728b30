/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/ofdm_sync.h"
#include "ofdm/ofdm_fft.h"
#include "common/running_sums.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

namespace {
constexpr double pi = 3.14159265358979323846;

// Capacity for n elements, at least doubling: the sums and samples are
// trimmed from the front and refilled at the back all the time, and an
// exact reserve would move them on every push.
// out[n] = y[n] exp(-j 2 pi cfo (t0 + n)) scale. The phasor of each block
// of 16 samples is the block's in double times the 16 steps' in float: the
// multiplies of a block do not wait on each other (a phasor advanced sample
// by sample is one long chain of dependent multiplies), and the error does
// not grow along the symbol.
void rotate(const cfloat* y, int n, double cfo, double t0, double scale, cfloat* out)
{
    constexpr int B = 16;
    float wr[B], wi[B];
    for (int k = 0; k < B; k++) {
        wr[k] = float(std::cos(-2.0 * pi * cfo * k));
        wi[k] = float(std::sin(-2.0 * pi * cfo * k));
    }
    const std::complex<double> jump = std::polar(1.0, -2.0 * pi * cfo * B);
    std::complex<double> base = std::polar(scale, -2.0 * pi * cfo * t0);
    const float* __restrict in = reinterpret_cast<const float*>(y);
    float* __restrict o = reinterpret_cast<float*>(out);
    int i = 0;
    for (; i + B <= n; i += B, base *= jump) {
        const float br = float(base.real()), bi = float(base.imag());
        for (int k = 0; k < B; k++) {
            const float pr = br * wr[k] - bi * wi[k], pi_ = br * wi[k] + bi * wr[k];
            const float xr = in[2 * (i + k)], xi = in[2 * (i + k) + 1];
            o[2 * (i + k)] = xr * pr - xi * pi_;
            o[2 * (i + k) + 1] = xr * pi_ + xi * pr;
        }
    }
    for (; i < n; i++) {
        const std::complex<double> p = std::polar(scale, -2.0 * pi * cfo * (t0 + i));
        out[i] = y[i] * cfloat(p);
    }
}

template <typename T>
void grow(std::vector<T>& v, size_t n)
{
    if (v.capacity() < n)
        v.reserve(std::max(n, 2 * v.capacity()));
}
constexpr int64_t trim_above = 1 << 16;
} // namespace

namespace {

// Each training and data symbol of a located frame: its FFT window cp/4
// samples inside its cyclic prefix, frequency corrected, transformed;
// symbols ((s * nr) + r) * fft_len + bin. y[r][i] is antenna r's sample
// first + i. Twice: the training symbols first, whose pattern repeats
// every nt symbols, so that the phase between repeats refines the
// frequency (the sync symbol's N/2 samples leave an error that turns a long
// frame's last symbols by tenths of a radian); then every symbol.
void extract_symbols(const ofdm_frame_format& f,
                     int nr,
                     const cfloat* const* y,
                     int64_t first,
                     int64_t t0,
                     double& cfo,
                     std::vector<cfloat>& out)
{
    const int N = f.fft_len, L = f.symbol_len();
    const int S = f.training_symbols() + f.data_symbols;
    const int backoff = f.cp_len / 4;
    thread_local std::vector<cfloat> buf;
    buf.resize(size_t(N));
    out.resize(size_t(S) * size_t(nr) * size_t(N));
    for (int pass = 0; pass < 2; pass++) {
        const int upto = pass == 0 ? f.training_symbols() : S;
        for (int s = 0; s < upto; s++) {
            const int64_t start = t0 + N + int64_t(s) * L + f.cp_len - backoff;
            for (int rr = 0; rr < nr; rr++) {
                // The 1/sqrt(N) of the FFT folded into the phasor.
                rotate(y[rr] + (start - first), N, cfo, double(start), 1.0 / std::sqrt(double(N)), buf.data());
                fft(buf.data(), out.data() + (size_t(s) * nr + rr) * N, size_t(N), false);
            }
        }
        if (pass == 1)
            break;
        std::complex<double> acc = 0.0;
        for (int t = 0; t + f.nt < f.training_symbols(); t++)
            for (int rr = 0; rr < nr; rr++)
                for (int k = 0; k < f.used; k++) {
                    const int b = f.bin(k);
                    acc += std::complex<double>(out[(size_t(t + f.nt) * nr + rr) * N + b]) *
                           std::conj(std::complex<double>(out[(size_t(t) * nr + rr) * N + b]));
                }
        cfo += std::arg(acc) / (2.0 * pi * double(f.nt) * f.symbol_len());
    }
}

} // namespace

// A located frame: what its symbols are made from, and them once made.
struct ofdm_frame_receiver::frame_job {
    int64_t t0 = 0;    // the sync symbol's FFT window
    double cfo = 0.0;  // the detection's estimate, refined by the training
    double metric = 0.0;
    // The frame's samples from `first` on (workers: a copy; they must not
    // read the receiver's history, which push() moves and trims).
    int64_t first = 0;
    std::vector<std::vector<cfloat>> samples;
    ofdm_sync_result result;
    bool done = false; // under workers::d_lock when there are workers
};

// Worker threads that transform frames' symbols, oldest job first; and the
// symbol buffers of popped frames, for the next frames.
class ofdm_frame_receiver::workers
{
public:
    using job_ptr = std::shared_ptr<frame_job>;

    explicit workers(int n)
    {
        for (int i = 0; i < n; i++)
            d_threads.emplace_back([this] { serve(); });
    }
    ~workers()
    {
        {
            std::lock_guard<std::mutex> lk(d_lock);
            d_quit = true;
        }
        d_work.notify_all();
        for (auto& t : d_threads)
            t.join();
    }
    void start(job_ptr job, const ofdm_frame_format& f, int nr)
    {
        {
            std::lock_guard<std::mutex> lk(d_lock);
            d_queue.push_back({ std::move(job), &f, nr });
        }
        d_work.notify_one();
    }
    bool done(const frame_job& j)
    {
        std::lock_guard<std::mutex> lk(d_lock);
        return j.done;
    }
    void wait(const frame_job& j)
    {
        std::unique_lock<std::mutex> lk(d_lock);
        d_finished.wait(lk, [&] { return j.done; });
    }
    std::vector<cfloat> buffer()
    {
        std::lock_guard<std::mutex> lk(d_lock);
        if (d_pool.empty())
            return {};
        std::vector<cfloat> b = std::move(d_pool.back());
        d_pool.pop_back();
        return b;
    }
    //! Sample arrays of a finished job, or none.
    std::vector<std::vector<cfloat>> samples()
    {
        std::lock_guard<std::mutex> lk(d_lock);
        if (d_samples.empty())
            return {};
        auto v = std::move(d_samples.back());
        d_samples.pop_back();
        return v;
    }
    void recycle(std::vector<cfloat>&& b)
    {
        std::lock_guard<std::mutex> lk(d_lock);
        if (d_pool.size() < 2 * d_threads.size() + 4)
            d_pool.push_back(std::move(b));
    }

private:
    struct task {
        job_ptr job;
        const ofdm_frame_format* f;
        int nr;
    };
    std::mutex d_lock;
    std::condition_variable d_work, d_finished;
    std::deque<task> d_queue;
    std::vector<std::vector<cfloat>> d_pool;
    std::vector<std::vector<std::vector<cfloat>>> d_samples;
    bool d_quit = false;
    std::vector<std::thread> d_threads;

    void serve()
    {
        for (;;) {
            task t;
            {
                std::unique_lock<std::mutex> lk(d_lock);
                d_work.wait(lk, [&] { return d_quit || !d_queue.empty(); });
                if (d_queue.empty())
                    return;
                t = std::move(d_queue.front());
                d_queue.pop_front();
            }
            frame_job& j = *t.job;
            std::vector<const cfloat*> y;
            for (const auto& v : j.samples)
                y.push_back(v.data());
            std::vector<cfloat> out = buffer();
            double cfo = j.cfo;
            extract_symbols(*t.f, t.nr, y.data(), j.first, j.t0, cfo, out);
            j.result.cfo = cfo;
            j.result.symbols = std::move(out);
            {
                std::lock_guard<std::mutex> lk(d_lock);
                t.job->done = true;
                // Its copy of the samples, done with: for a later frame
                // (fresh memory would be a page fault every 4 KiB).
                if (d_samples.size() < 2 * d_threads.size() + 4)
                    d_samples.push_back(std::move(t.job->samples));
                t.job->samples = {};
            }
            d_finished.notify_all();
        }
    }
};


ofdm_frame_receiver::ofdm_frame_receiver(const ofdm_frame_format& f, int nr, double threshold, int threads)
    : d_f(f), d_nr(nr), d_threshold(threshold), d_half(f.fft_len / 2)
{
    if (nr < 1 || nr > 8)
        throw std::invalid_argument("nr must be in 1..8, got " + std::to_string(nr));
    if (!(threshold > 0.0 && threshold < 1.0))
        throw std::invalid_argument("threshold must be in (0, 1), got " + std::to_string(threshold));
    if (threads < 0 || threads > 16)
        throw std::invalid_argument("threads must be in 0..16, got " + std::to_string(threads));
    if (threads > 0)
        d_workers = std::make_unique<workers>(threads);
    std::vector<cfloat> s = sync_spectrum(f);
    fft_inplace(s, true);
    const float scale = float(1.0 / std::sqrt(double(f.fft_len)));
    for (auto& v : s)
        v *= scale;
    d_sync_time = s;
    // The fine timing's span (locate()): 4.5 N samples. Its FFT length: the
    // smallest at least that long made of factors 2, 3 and 5 (9216 for N =
    // 2048, where a power of two would be 16384), which FFTW does as fast
    // per point.
    size_t L = size_t(4 * f.fft_len + d_half);
    for (;; L++) {
        size_t m = L;
        for (const size_t q : { 2u, 3u, 5u })
            while (m % q == 0)
                m /= q;
        if (m == 1)
            break;
    }
    d_sync_conj_fft.assign(L, cfloat(0, 0));
    std::copy(s.begin(), s.end(), d_sync_conj_fft.begin());
    fft(d_sync_conj_fft.data(), L, false);
    for (auto& v : d_sync_conj_fft)
        v = std::conj(v);
    d_y.assign(size_t(nr), {});
    d_q.push_back(0.0);
    d_e.push_back(0.0);
    // Zeros before the first sample, so that a frame at the very start has
    // its look-back; absolute indices stay those of the input.
    const int lead = f.fft_len;
    d_base = -lead;
    d_scan = -lead;
    d_sum_from = -lead;
    std::vector<cfloat> zeros(size_t(lead), cfloat(0, 0));
    std::vector<const cfloat*> p(size_t(nr), zeros.data());
    push(p.data(), zeros.size());
}

void ofdm_frame_receiver::push(const cfloat* const* x, size_t n)
{
    const size_t old = d_y[0].size();
    for (int r = 0; r < d_nr; r++) {
        auto& y = d_y[size_t(r)];
        // resize and memcpy: insert() of complex<float> copies element by
        // element, a fifth of this function's time.
        grow(y, old + n);
        y.resize(old + n);
        std::memcpy(static_cast<void*>(y.data() + old), x[r], n * sizeof(cfloat));
        d_non_finite += zero_non_finite(y.data() + old, n);
    }
    run();
}

std::vector<int64_t> ofdm_frame_receiver::finish()
{
    const int64_t last = samples();
    // The most any decision reads past a detection: the peak search (3N),
    // the fine timing (2N past the peak) and a whole frame after it.
    const size_t pad = size_t(6 * d_f.fft_len + d_f.frame_len());
    const std::vector<cfloat> zeros(pad);
    const std::vector<const cfloat*> p(static_cast<size_t>(d_nr), zeros.data());
    const size_t before = d_out.size();
    push(p.data(), pad);
    std::vector<int64_t> cut;
    for (size_t i = before; i < d_out.size();) {
        const int64_t start = d_out[i]->t0 - d_f.cp_len;
        if (start + d_f.frame_len() > last) {
            cut.push_back(start);
            d_out.erase(d_out.begin() + std::ptrdiff_t(i));
        } else {
            i++;
        }
    }
    return cut;
}

ofdm_frame_receiver::~ofdm_frame_receiver() = default;

void ofdm_frame_receiver::recycle(std::vector<cfloat>&& symbols)
{
    if (d_workers)
        d_workers->recycle(std::move(symbols));
    else if (d_pool.size() < 4)
        d_pool.push_back(std::move(symbols));
}

size_t ofdm_frame_receiver::in_work() const
{
    size_t n = 0;
    if (d_workers)
        for (const auto& j : d_out)
            n += d_workers->done(*j) ? 0 : 1;
    return n;
}

bool ofdm_frame_receiver::pop(ofdm_sync_result& r, bool wait)
{
    if (d_out.empty())
        return false;
    frame_job& j = *d_out.front();
    if (d_workers) {
        if (wait)
            d_workers->wait(j);
        else if (!d_workers->done(j))
            return false;
    }
    r = std::move(j.result);
    d_out.pop_front();
    return true;
}

double ofdm_frame_receiver::metric(int64_t d, std::complex<double>* p) const
{
    const int64_t i = d - d_sum_from, H = d_half;
    const std::complex<double> P = d_q[size_t(i + H)] - d_q[size_t(i)];
    // Both halves' energies: |P| <= sqrt(R1 R2) <= (R1 + R2) / 2, so M <= 1
    // even where the energy steps (a frame's end into silence, where the
    // second half alone would make M soar).
    const double R = 0.5 * (d_e[size_t(i + 2 * H)] - d_e[size_t(i)]);
    if (p)
        *p = P;
    return R > 0.0 ? std::sqrt(std::norm(P)) / R : 0.0;
}

bool ofdm_frame_receiver::crosses(int64_t d) const
{
    // metric(d) > threshold without its square root and division.
    const int64_t i = d - d_sum_from, H = d_half;
    const std::complex<double> P = d_q[size_t(i + H)] - d_q[size_t(i)];
    const double R = 0.5 * (d_e[size_t(i + 2 * H)] - d_e[size_t(i)]);
    return R > 0.0 && std::norm(P) > d_threshold * d_threshold * R * R;
}

bool ofdm_frame_receiver::locate(int64_t coarse, double cfo, int64_t& t0)
{
    const int N = d_f.fft_len, H = d_half;
    // Fine timing: the known sync waveform against each antenna, from N/2
    // before the coarse estimate to 3N after it (a crossing on
    // noise before the frame leaves the coarse estimate early). A best
    // timing in the range's last N may be a partial match of a sync symbol
    // beyond the range (its cyclic prefix, or its repeated half, against
    // the waveform): rejected, and a later crossing finds the frame.
    const int64_t last = coarse + 3 * N;
    // Each antenna's samples over the search, frequency corrected once (a
    // phasor advanced sample by sample), then the correlations.
    const int64_t first = coarse - H;
    const size_t span = size_t(last + N - first);
    auto& z = d_scratch.z;
    z.resize(static_cast<size_t>(d_nr));
    for (auto& v : z)
        v.resize(span);
    for (int rr = 0; rr < d_nr; rr++)
        rotate(d_y[size_t(rr)].data() + (first - d_base), int(span), cfo, double(first), 1.0, z[size_t(rr)].data());
    // Every lag's correlation at once by FFTs of L >= span points (a
    // correlation per lag costs N multiplies: 3.5 N^2 per antenna, 29
    // million at N = 2048); lags up to span - N do not wrap.
    const size_t L = d_sync_conj_fft.size();
    auto& power = d_scratch.power;
    power.assign(size_t(last - first + 1), 0.0);
    auto& a = d_scratch.a;
    auto& c = d_scratch.c;
    a.resize(L);
    c.resize(L);
    for (int rr = 0; rr < d_nr; rr++) {
        std::fill(std::copy(z[size_t(rr)].begin(), z[size_t(rr)].end(), a.begin()), a.end(), cfloat(0, 0));
        fft(a.data(), c.data(), L, false);
        for (size_t k = 0; k < L; k++)
            c[k] *= d_sync_conj_fft[k];
        fft(c.data(), a.data(), L, true);
        std::swap(a, c);
        for (size_t m = 0; m < power.size(); m++)
            power[m] += std::norm(std::complex<double>(c[m])) / (double(L) * double(L));
    }
    double best = -1.0;
    t0 = coarse;
    for (size_t m = 0; m < power.size(); m++)
        if (power[m] > best) {
            best = power[m];
            t0 = first + int64_t(m);
        }
    // The sync symbol must be there, not a metric peak on noise or data:
    // its normalised correlation (1 for the symbol alone on one path; the
    // strongest path's share of the energy on several, 0.3 to 0.7 on the
    // twin's exponential profile; about 0.05 on data) at least 0.15.
    double e = 0.0, es = 0.0;
    for (int rr = 0; rr < d_nr; rr++)
        for (int n = 0; n < N; n++)
            e += std::norm(d_y[size_t(rr)][size_t(t0 + n - d_base)]);
    for (const auto& v : d_sync_time)
        es += std::norm(v);
    if (t0 > last - N || !(e > 0.0) || best / (es * e) < 0.15)
        return false;
    // And its repeated halves must be where the timing says (a partial
    // match, the cyclic prefix alone against the waveform's end, passes
    // the correlation but not this).
    if (metric(t0 - d_f.cp_len / 2, nullptr) < d_threshold)
        return false;
    return true;
}

void ofdm_frame_receiver::submit(int64_t t0, double cfo, double m)
{
    auto job = std::make_shared<frame_job>();
    job->t0 = t0;
    job->cfo = cfo;
    job->metric = m;
    job->result.timing = double(t0);
    job->result.metric = m;
    // What extract_symbols() reads: from the first symbol's window to the
    // last's end.
    const int64_t first = t0 + d_f.fft_len + d_f.cp_len - d_f.cp_len / 4;
    const int S = d_f.training_symbols() + d_f.data_symbols;
    const size_t span = size_t(S - 1) * size_t(d_f.symbol_len()) + size_t(d_f.fft_len);
    if (!d_workers) {
        std::vector<const cfloat*> y;
        for (const auto& v : d_y)
            y.push_back(v.data());
        // A recycled buffer where there is one (a fresh 2048-point frame is
        // 180 fresh pages, each a page fault); extract_symbols() writes all
        // of it.
        if (!d_pool.empty()) {
            job->result.symbols = std::move(d_pool.back());
            d_pool.pop_back();
        }
        extract_symbols(d_f, d_nr, y.data(), d_base, t0, job->cfo, job->result.symbols);
        job->result.cfo = job->cfo;
        job->done = true;
        d_out.push_back(std::move(job));
        return;
    }
    job->first = first;
    job->samples = d_workers->samples();
    job->samples.resize(size_t(d_nr));
    for (int r = 0; r < d_nr; r++) {
        const cfloat* y = d_y[size_t(r)].data() + (first - d_base);
        job->samples[size_t(r)].assign(y, y + span);
    }
    d_out.push_back(job);
    d_workers->start(std::move(job), d_f, d_nr);
}

// The running sums over [d_sum_from, to): each sample's terms summed over
// the antennas in float, in loops the compiler vectorises, then accumulated
// in double. Only where detection looks: from a little before the scan to
// the peak search's end; a frame's data between its sync symbol and the
// next frame's is never summed (reset_sums()), four fifths of a 20 MHz
// frame's samples.
void ofdm_frame_receiver::extend_sums(int64_t to)
{
    to = std::min(to, samples());
    // e[k]: sum over samples d_sum_from .. d_sum_from + k - 1 of sum_r |y_r|^2.
    const int64_t e_from = d_sum_from + int64_t(d_e.size()) - 1;
    if (to > e_from) {
        const size_t n = size_t(to - e_from);
        d_scratch.term_e.assign(n, 0.0f);
        float* __restrict te = d_scratch.term_e.data();
        for (int r = 0; r < d_nr; r++) {
            const float* __restrict y = reinterpret_cast<const float*>(d_y[size_t(r)].data() + (e_from - d_base));
            for (size_t i = 0; i < n; i++)
                te[i] += y[2 * i] * y[2 * i] + y[2 * i + 1] * y[2 * i + 1];
        }
        grow(d_e, d_e.size() + n);
        const size_t e0 = d_e.size();
        double e_acc = d_e.back();
        d_e.resize(e0 + n);
        double* __restrict ep = d_e.data() + e0;
        for (size_t i = 0; i < n; i++) {
            e_acc += double(te[i]);
            ep[i] = e_acc;
        }
    }
    // q[k]: sum over j = d_sum_from .. d_sum_from + k - 1 of
    // sum_r conj(y_r(j)) y_r(j + N/2), for the j whose second sample has
    // come.
    const int64_t q_from = d_sum_from + int64_t(d_q.size()) - 1;
    const int64_t q_to = std::min(to, samples() - d_half);
    if (q_to > q_from) {
        const size_t m = size_t(q_to - q_from);
        d_scratch.term_qr.assign(m, 0.0f);
        d_scratch.term_qi.assign(m, 0.0f);
        float* __restrict tr = d_scratch.term_qr.data();
        float* __restrict ti = d_scratch.term_qi.data();
        for (int r = 0; r < d_nr; r++) {
            const float* __restrict a = reinterpret_cast<const float*>(d_y[size_t(r)].data() + (q_from - d_base));
            const float* __restrict b = a + 2 * d_half;
            for (size_t i = 0; i < m; i++) {
                tr[i] += a[2 * i] * b[2 * i] + a[2 * i + 1] * b[2 * i + 1];
                ti[i] += a[2 * i] * b[2 * i + 1] - a[2 * i + 1] * b[2 * i];
            }
        }
        grow(d_q, d_q.size() + m);
        const size_t q0 = d_q.size();
        double qr = d_q.back().real(), qi = d_q.back().imag();
        d_q.resize(q0 + m);
        double* __restrict qp = reinterpret_cast<double*>(d_q.data() + q0);
        for (size_t i = 0; i < m; i++) {
            qr += double(tr[i]);
            qi += double(ti[i]);
            qp[2 * i] = qr;
            qp[2 * i + 1] = qi;
        }
    }
}

void ofdm_frame_receiver::reset_sums(int64_t from)
{
    d_sum_from = from;
    d_e.assign(1, 0.0);
    d_q.assign(1, 0.0);
}

void ofdm_frame_receiver::run()
{
    const int N = d_f.fft_len, H = d_half;
    for (;;) {
        const int64_t end = samples();
        if (!d_triggered) {
            // Past an accepted frame's data: the sums start again 2N before
            // the scan (the farthest any decision looks back).
            if (d_scan - 2 * N > d_sum_from + int64_t(d_e.size()) - 1)
                reset_sums(std::max(d_base, d_scan - 2 * N));
            // Summed a piece at a time just ahead of the scan, so that a
            // crossing does not leave the rest of a long push summed for
            // nothing.
            for (;;) {
                const int64_t summed = d_sum_from + int64_t(d_e.size()) - 1;
                extend_sums(std::max(summed, d_scan + N) + 4096);
                const int64_t upto = d_sum_from + int64_t(d_e.size()) - 1;
                while (d_scan + N <= upto) {
                    if (d_scan - d_sum_from >= 0 && crosses(d_scan)) {
                        d_triggered = true;
                        d_trigger = d_scan;
                        break;
                    }
                    d_scan++;
                }
                if (d_triggered || upto >= end)
                    break;
            }
            if (!d_triggered)
                break;
        }
        // The peak within 3N of the crossing (a crossing on noise up to
        // 2N before the frame still finds the sync symbol's plateau, where
        // the frequency estimate is right); then the fine timing and the
        // whole frame after it.
        if (d_trigger + 4 * N > end)
            break;
        extend_sums(d_trigger + 4 * N);
        // M^2 = |P|^2 / R^2 compared as products: no square root or
        // division per sample (metric() gives M itself).
        int64_t peak = d_trigger;
        double best_num = -1.0, best_den = 1.0;
        std::complex<double> P_best = 0.0;
        for (int64_t d = d_trigger; d <= d_trigger + 3 * N; d++) {
            const int64_t i = d - d_sum_from;
            const std::complex<double> P = d_q[size_t(i + H)] - d_q[size_t(i)];
            const double R = 0.5 * (d_e[size_t(i + 2 * H)] - d_e[size_t(i)]);
            const double num = R > 0.0 ? std::norm(P) : 0.0, den = R > 0.0 ? R * R : 1.0;
            if (num * best_den > best_num * den) {
                best_num = num;
                best_den = den;
                peak = d;
                P_best = P;
            }
        }
        const double best = std::sqrt(best_num / best_den);
        // The S&C peak lies up to a CP before the symbol's FFT window.
        const int64_t coarse = peak + d_f.cp_len / 2;
        // The fine search reads to coarse + 4N; an accepted frame (timing
        // at most coarse + 2N) reads to its timing + frame_len.
        const int64_t need = std::max<int64_t>(coarse + 4 * N, coarse + 2 * N + d_f.frame_len());
        if (need > end)
            break;
        const double cfo = std::arg(P_best) / (pi * N);
        // locate() checks the metric up to 3N past the coarse timing.
        extend_sums(coarse + 4 * N);
        int64_t t0 = 0;
        const bool ok = coarse - H - d_sum_from >= 0 && locate(coarse, cfo, t0);
        if (ok) {
            d_scan = t0 + d_f.frame_len() - d_f.symbol_len();
            submit(t0, cfo, best);
        } else {
            // One FFT length on (a tone or DC keeps M at 1: a retry at the
            // next sample would search at every sample); a frame whose
            // plateau lay in the window searched would have been its peak.
            d_scan = std::max(peak + 1, d_trigger + N);
        }
        d_triggered = false;
    }
    trim();
}

void ofdm_frame_receiver::trim()
{
    // Also while a detection waits for its frame (d_scan is then the
    // detection, and every read for it lies at most 2N before it): with
    // frames back to back the receiver waits nearly all the time, and the
    // kept samples would grow with the stream.
    // A trim moves what is kept (about a frame while one is awaited) to the
    // front: only once at least four frames' worth can go, so that long
    // frames are not moved again for every few that pass.
    const int64_t keep_from = d_scan - 2 * d_f.fft_len;
    const int64_t drop = keep_from - d_base;
    if (drop < std::max<int64_t>(trim_above, 4 * int64_t(d_f.frame_len())))
        return;
    for (auto& y : d_y)
        y.erase(y.begin(), y.begin() + drop);
    d_base += drop;
    if (d_sum_from < d_base) {
        const int64_t k = d_base - d_sum_from;
        if (k < int64_t(d_e.size()) && k < int64_t(d_q.size())) {
            drop_prefix(d_e, size_t(k));
            drop_prefix(d_q, size_t(k));
            d_sum_from = d_base;
        } else {
            reset_sums(d_base);
        }
    }
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr
