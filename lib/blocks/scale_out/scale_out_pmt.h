/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the scale-out blocks share: metadata integers read as
// python/gpurx/scale_out.py reads them (uint64 or long), the HARQ fields
// checked, reports built as dicts ("reason" and fields), and message
// handlers that no exception escapes (GNU Radio would end the block's
// thread: issue 35): one is reported on "errors" ("internal error") and the
// message dropped.
#ifndef INCLUDED_GPURX_BLOCKS_SCALE_OUT_PMT_H
#define INCLUDED_GPURX_BLOCKS_SCALE_OUT_PMT_H

#include "scale_out/harq_key.h"
#include "scale_out/meta_int.h"
#include <gnuradio/basic_block.h>
#include <pmt/pmt.h>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>

namespace gr {
namespace gpurx {
namespace scale_out {

namespace keys {
inline const pmt::pmt_t& pdus() { static const pmt::pmt_t v = pmt::mp("pdus"); return v; }
inline const pmt::pmt_t& errors() { static const pmt::pmt_t v = pmt::mp("errors"); return v; }
inline const pmt::pmt_t& control() { static const pmt::pmt_t v = pmt::mp("control"); return v; }
inline const pmt::pmt_t& seq() { static const pmt::pmt_t v = pmt::mp("seq"); return v; }
inline const pmt::pmt_t& shard_key() { static const pmt::pmt_t v = pmt::mp("shard_key"); return v; }
inline const pmt::pmt_t& harq_reset() { static const pmt::pmt_t v = pmt::mp("harq_reset"); return v; }
inline const pmt::pmt_t& instance() { static const pmt::pmt_t v = pmt::mp("worker_instance"); return v; }
inline const pmt::pmt_t& dropped() { static const pmt::pmt_t v = pmt::mp("dropped"); return v; }
inline const pmt::pmt_t& worker() { static const pmt::pmt_t v = pmt::mp("worker"); return v; }
inline const pmt::pmt_t& reason() { static const pmt::pmt_t v = pmt::mp("reason"); return v; }
} // namespace keys

inline meta_int read_int(const pmt::pmt_t& v)
{
    meta_int r;
    if (pmt::is_null(v))
        return r;
    if (pmt::is_uint64(v)) {
        r.kind = meta_int::ok;
        r.value = pmt::to_uint64(v);
    } else if (pmt::is_integer(v)) {
        r.kind = meta_int::ok;
        r.value = pmt::to_long(v);
    } else {
        r.kind = meta_int::ill_typed;
    }
    return r;
}

inline meta_int dict_int(const pmt::pmt_t& dict, const pmt::pmt_t& key)
{
    return read_int(pmt::dict_ref(dict, key, pmt::PMT_NIL));
}

inline bool is_meta_pdu(const pmt::pmt_t& msg)
{
    return pmt::is_pair(msg) && pmt::is_dict(pmt::car(msg));
}

inline std::string int_text(__int128 v)
{
    if (v < 0)
        return "-" + std::to_string(uint64_t(-v));
    return std::to_string(uint64_t(v));
}

//! A report: a dict with "reason" and fields added in order.
class report
{
public:
    explicit report(const std::string& reason) : d(pmt::make_dict())
    {
        d = pmt::dict_add(d, keys::reason(), pmt::mp(reason));
    }
    report& u64(const char* k, uint64_t v)
    {
        d = pmt::dict_add(d, pmt::mp(k), pmt::from_uint64(v));
        return *this;
    }
    report& i64(const char* k, int64_t v)
    {
        d = pmt::dict_add(d, pmt::mp(k), pmt::from_long(v));
        return *this;
    }
    report& str(const char* k, const std::string& v)
    {
        d = pmt::dict_add(d, pmt::mp(k), pmt::mp(v));
        return *this;
    }
    //! seq as the Python blocks wrote it: uint64, or long when negative.
    report& seq(const meta_int& s, const char* k = "seq")
    {
        if (s.kind == meta_int::ok)
            d = pmt::dict_add(d, pmt::mp(k),
                              s.value < 0 ? pmt::from_long(int64_t(s.value))
                                          : pmt::from_uint64(uint64_t(s.value)));
        return *this;
    }
    pmt::pmt_t dict() const { return d; }

private:
    pmt::pmt_t d;
};

//! A field that is there but not valid.
struct bad_field {
    const char* field;
    std::string value;
    const char* expected;
    report to_report() const
    {
        report r("bad HARQ field");
        r.str("field", field).str("value", value).str("expected", expected);
        return r;
    }
};

//! rnti, harq_process, codeword of a PDU's metadata (harq_values:
//! present[i] false when absent); false and bad set on the first one there
//! but not valid.
inline bool read_harq(const pmt::pmt_t& meta, harq_values& out, bad_field& bad)
{
    static const pmt::pmt_t names[3] = { pmt::mp("rnti"), pmt::mp("harq_process"),
                                         pmt::mp("codeword") };
    for (int i = 0; i < 3; ++i) {
        const harq_field& f = harq_fields[i];
        const pmt::pmt_t raw = pmt::dict_ref(meta, names[i], pmt::PMT_NIL);
        const meta_int m = read_int(raw);
        if (m.kind == meta_int::absent)
            continue;
        if (m.kind == meta_int::ill_typed) {
            bad = bad_field{ f.name, pmt::write_string(raw), f.expected };
            return false;
        }
        if (m.value < f.lo || m.value > f.hi) {
            bad = bad_field{ f.name, int_text(m.value), f.expected };
            return false;
        }
        out.present[i] = true;
        out.v[i] = int64_t(m.value);
    }
    return true;
}

//! handler wrapped: an exception is written on stderr and reported on the
//! block's "errors" port ("internal error": port, error); the message is
//! dropped and the block goes on.
inline std::function<void(const pmt::pmt_t&)>
guarded(gr::basic_block* block,
        const std::string& port,
        std::function<void(const pmt::pmt_t&)> handler,
        bool has_errors = true)
{
    return [block, port, handler, has_errors](const pmt::pmt_t& msg) {
        try {
            handler(msg);
        } catch (const std::exception& e) {
            std::cerr << block->name() << ": " << port << " handler: " << e.what()
                      << " (message dropped)" << std::endl;
            if (has_errors) {
                try {
                    report r("internal error");
                    r.str("port", port).str("error", e.what());
                    block->message_port_pub(keys::errors(), r.dict());
                } catch (...) {
                }
            }
        } catch (...) {
            std::cerr << block->name() << ": " << port << " handler: unknown exception"
                      << " (message dropped)" << std::endl;
        }
    };
}

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif
