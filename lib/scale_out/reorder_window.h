/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// pdu_reorder's logic (docs/scale-out.md, "The collector"), free of GNU
// Radio: messages (any type) come with their seq and leave in seq order;
// what does not come is skipped and reported (timeout, window_full, resync,
// flush), duplicates and late ones told apart however long ago they passed,
// a worker's drop notice reported in its turn. Each call takes an `out`
// with emit(seq, msg&), dropped(seq, msg&) (a notice's turn), report(reason,
// seq) and resync(first, last, count); times are seconds on any monotonic
// clock.
#ifndef INCLUDED_GPURX_SCALE_OUT_REORDER_WINDOW_H
#define INCLUDED_GPURX_SCALE_OUT_REORDER_WINDOW_H

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gr {
namespace gpurx {
namespace scale_out {

//! What became of the seqs passed (below the next due), as runs of one
//! kind: delivered (emitted, or reported dropped) or not (skipped). At most
//! max_runs are kept, the oldest half forgotten at once; a seq older than
//! them counts as not delivered.
class seq_history
{
public:
    explicit seq_history(size_t max_runs = size_t(1) << 16) : d_max_runs(max_runs) {}

    void note(uint64_t seq, bool delivered)
    {
        if (!d_delivered.empty() && d_delivered.back() == delivered)
            return;
        d_starts.push_back(seq);
        d_delivered.push_back(delivered);
        if (d_starts.size() > d_max_runs) {
            const size_t half = d_starts.size() / 2;
            d_starts.erase(d_starts.begin(), d_starts.begin() + half);
            d_delivered.erase(d_delivered.begin(), d_delivered.begin() + half);
        }
    }

    bool delivered(uint64_t seq) const
    {
        auto it = std::upper_bound(d_starts.begin(), d_starts.end(), seq);
        if (it == d_starts.begin())
            return false;
        return d_delivered[size_t(it - d_starts.begin()) - 1];
    }

    size_t runs() const { return d_starts.size(); }

private:
    size_t d_max_runs;
    std::vector<uint64_t> d_starts;
    std::vector<bool> d_delivered;
};

template <class Msg>
class reorder_window
{
public:
    struct counts {
        uint64_t emitted = 0, timeout = 0, window_full = 0, resync = 0, duplicate = 0,
                 late = 0, no_seq = 0, flush = 0, dropped = 0;
    };

    //! std::invalid_argument naming window (1..2^24) or timeout_s.
    reorder_window(uint64_t window, double timeout_s, uint64_t first_seq = 0)
        : d_window(window), d_timeout(timeout_s), d_next(first_seq)
    {
        if (window < 1 || window > (uint64_t(1) << 24))
            throw std::invalid_argument("window must be 1..16777216, got " +
                                        std::to_string(window));
        if (!(timeout_s > 0))
            throw std::invalid_argument("timeout must be > 0");
    }

    uint64_t next_seq() const { return d_next; }
    size_t held() const { return d_held.size(); }
    bool waiting() const { return !d_arrivals.empty(); }
    const counts& stats() const { return d_counts; }
    //! A message without a usable seq.
    void no_seq() { d_counts.no_seq += 1; }

    //! A message with seq, arrived at now; notice: a worker's drop notice.
    template <class Out>
    void push(uint64_t seq, Msg msg, bool notice, double now, Out& out)
    {
        if (d_held.count(seq)) {
            report(out, "duplicate", seq);
            return;
        }
        if (seq < d_next) {
            report(out, d_history.delivered(seq) ? "duplicate" : "late", seq);
            return;
        }
        if (seq - d_next >= 2 * d_window)
            resync(seq, out);
        else if (seq - d_next >= d_window)
            skip_to(seq - d_window + 1, "window_full", out);
        d_held.emplace(seq, held_msg{ std::move(msg), notice });
        d_arrivals.emplace_back(now, seq);
        emit_ready(out);
        expire(now, out);
    }

    //! Skips the gaps before every held message that has waited the timeout.
    template <class Out>
    void expire(double now, Out& out)
    {
        bool any = false;
        uint64_t limit = 0;
        while (!d_arrivals.empty() && now - d_arrivals.front().first >= d_timeout) {
            limit = any ? std::max(limit, d_arrivals.front().second)
                        : d_arrivals.front().second;
            any = true;
            d_arrivals.pop_front();
        }
        if (any && limit >= d_next)
            skip_to(limit, "timeout", out);
        while (!d_arrivals.empty() && d_arrivals.front().second < d_next)
            d_arrivals.pop_front();
    }

    //! Emits everything held, in order, reporting the gaps ("flush").
    template <class Out>
    void flush(Out& out)
    {
        if (!d_held.empty()) {
            uint64_t top = 0;
            for (const auto& h : d_held)
                top = std::max(top, h.first);
            skip_to(top + 1, "flush", out);
        }
        d_arrivals.clear();
    }

private:
    struct held_msg {
        Msg msg;
        bool notice;
    };

    template <class Out>
    void report(Out& out, const char* reason, uint64_t seq)
    {
        bump(reason);
        out.report(reason, seq);
    }

    void bump(const std::string& reason)
    {
        if (reason == "timeout")
            d_counts.timeout += 1;
        else if (reason == "window_full")
            d_counts.window_full += 1;
        else if (reason == "duplicate")
            d_counts.duplicate += 1;
        else if (reason == "late")
            d_counts.late += 1;
        else if (reason == "flush")
            d_counts.flush += 1;
        else if (reason == "resync")
            d_counts.resync += 1;
        else if (reason == "dropped")
            d_counts.dropped += 1;
    }

    void pass(bool delivered)
    {
        d_history.note(d_next, delivered);
        d_next += 1;
    }

    template <class Out>
    void emit_ready(Out& out)
    {
        for (auto it = d_held.find(d_next); it != d_held.end(); it = d_held.find(d_next)) {
            held_msg h = std::move(it->second);
            d_held.erase(it);
            if (h.notice) {
                bump("dropped");
                out.dropped(d_next, h.msg);
            } else {
                d_counts.emitted += 1;
                out.emit(d_next, h.msg);
            }
            pass(true);
        }
    }

    // Skips every missing seq below seq, one report each, emitting what is
    // held (at most window seqs: a larger jump is a resync).
    template <class Out>
    void skip_to(uint64_t seq, const char* reason, Out& out)
    {
        while (d_next < seq) {
            if (d_held.count(d_next)) {
                emit_ready(out);
                continue;
            }
            report(out, reason, d_next);
            pass(false);
        }
        emit_ready(out);
    }

    uint64_t jump_to(uint64_t seq)
    {
        if (seq <= d_next)
            return 0;
        const uint64_t n = seq - d_next;
        d_history.note(d_next, false);
        d_next = seq;
        return n;
    }

    // Emits what is held and continues from seq, reporting what was skipped
    // as one "resync": O(window) for any jump.
    template <class Out>
    void resync(uint64_t seq, Out& out)
    {
        const uint64_t first = d_next;
        uint64_t skipped = 0;
        std::vector<uint64_t> seqs;
        seqs.reserve(d_held.size());
        for (const auto& h : d_held)
            seqs.push_back(h.first);
        std::sort(seqs.begin(), seqs.end());
        for (uint64_t s : seqs)
            if (d_held.count(s)) { // not emitted with the run of one before it
                skipped += jump_to(s);
                emit_ready(out);
            }
        skipped += jump_to(seq);
        bump("resync");
        out.resync(first, seq - 1, skipped);
    }

    uint64_t d_window;
    double d_timeout;
    uint64_t d_next;
    std::unordered_map<uint64_t, held_msg> d_held;
    std::deque<std::pair<double, uint64_t>> d_arrivals;
    seq_history d_history;
    counts d_counts;
};

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif
