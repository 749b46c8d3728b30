/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/tagged_driver.h"
#include "blocks/drivers/packet_length.h"
#include "blocks/drivers/pdu_driver.h" // error_dict
#include "blocks/drivers/frame_admission.h"
#include "blocks/drivers/stream_end.h"

#include <algorithm>
#include <cmath>

namespace gr {
namespace gpurx {

tagged_driver::tagged_driver(gr::block& block,
                             block_tags& tags,
                             const frame_adapter& adapter,
                             pipeline_holder& holder,
                             const std::string& len_tag_key)
    : d_block(block), d_tags(tags), d_adapter(adapter), d_holder(holder), d_len_key(pmt::mp(len_tag_key))
{
    if (len_tag_key.empty())
        throw std::invalid_argument("len_tag_key must not be empty");
}

void tagged_driver::setup()
{
    d_block.set_tag_propagation_policy(gr::block::TPP_DONT);
    // Room for the largest output packet in every call. GNU Radio sizes
    // buffers from the item size alone (64 KiB by default), not from
    // min_noutput_items: a larger packet (MIMO LLRs, 4 bytes an item) would
    // never fit and the block would wait forever, so ask for two packets' room.
    const int max_out_items = int(d_adapter.max_out_bytes() / d_adapter.out_item_bytes());
    d_block.set_min_noutput_items(max_out_items);
    if (d_block.min_output_buffer(0) < long(2 * max_out_items))
        d_block.set_min_output_buffer(0, long(2 * max_out_items));
    d_block.message_port_register_out(d_errors_port);
}

void tagged_driver::forecast(int, gr_vector_int& required) const
{
    // One item at a time is always enough: packets are staged in pieces.
    const auto* p = d_holder.pipe();
    required[0] = (p && p->pending() > 0) ? 0 : 1;
}

void tagged_driver::report(uint64_t offset, const std::string& why, long long length, const char* action)
{
    d_holder.logger()->warn("input item {}: {}", offset, why);
    pmt::pmt_t d = error_dict(why, action);
    d = pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(offset));
    if (length >= 0)
        d = pmt::dict_add(d, pmt::mp("length"), pmt::from_uint64(uint64_t(length)));
    d_block.message_port_pub(d_errors_port, d);
}

void tagged_driver::report_conflict(uint64_t offset, const std::string& values, const pmt::pmt_t& used)
{
    if (offset == d_conflict_reported)
        return; // a packet that waited for a free slot is seen again
    d_conflict_reported = offset;
    const std::string why = "several " + pmt::symbol_to_string(d_len_key) +
                            " tags with different values at this item (" + values +
                            "): the first, " + pmt::write_string(used) + ", is used";
    d_holder.logger()->warn("input item {}: {}", offset, why);
    pmt::pmt_t d = error_dict(why, "processed");
    d = pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(offset));
    d_block.message_port_pub(d_errors_port, d);
}

void tagged_driver::close_truncated(const std::string& where)
{
    report(d_packet.start,
           "packet of " + std::to_string(d_packet.shape.in_items) + " items cut short " + where +
               " after " + std::to_string(d_packet.staged) + " items: dropped",
           (long long)d_packet.shape.in_items);
    d_holder.pipe()->abort_frame();
    d_packet = open_packet{};
}

pmt::pmt_t tagged_driver::frame_tags(uint64_t rel) const
{
    std::vector<gr::tag_t> at;
    d_tags.all_tags_in_window(at, 0, rel, rel + 1);
    // In the order added; the first of a repeated key counts, as for the
    // length tag.
    std::stable_sort(at.begin(), at.end(), gr::tag_t::offset_compare);
    pmt::pmt_t d = pmt::make_dict();
    for (const auto& t : at)
        if (!pmt::eqv(t.key, d_len_key) && !pmt::dict_has_key(d, t.key))
            d = pmt::dict_add(d, t.key, t.value);
    return d;
}

void tagged_driver::commit(core::batch_pipeline& pipe)
{
    if (auto* admission = d_adapter.admission()) {
        admission_report said;
        admission->admit(d_packet.shape, pipe.open_frame_params(), said);
        if (!said.info.empty())
            d_holder.logger()->info("input item {}: {}", d_packet.start, said.info);
        if (!said.error.empty())
            report(d_packet.start, said.error, (long long)d_packet.shape.in_items, "processed");
    }
    if (d_adapter.uses_frame_metadata())
        d_frame_meta.push_back(d_packet.meta);
    pipe.commit_frame();
}

void tagged_driver::stop()
{
    if (d_packet.open && d_holder.pipe())
        close_truncated("by stop()");
}

std::string pmt_description(const pmt::pmt_t& v)
{
    // A symbol "12" prints as 12: say what kind of value it is.
    std::string text = pmt::write_string(v);
    if (text.size() > 60)
        text = text.substr(0, 57) + "...";
    if (pmt::is_null(v))
        return "nil (PMT_NIL)";
    if (pmt::is_bool(v))
        return "the bool " + text;
    if (pmt::is_symbol(v))
        return "the symbol (string) \"" + text + "\"";
    if (pmt::is_real(v))
        return "the double " + text;
    if (pmt::is_complex(v))
        return "the complex " + text;
    if (pmt::is_uniform_vector(v))
        return "a uniform vector of " + std::to_string(pmt::length(v)) + " item(s), " + text;
    if (pmt::is_vector(v))
        return "a vector of " + std::to_string(pmt::length(v)) + " item(s), " + text;
    if (pmt::is_tuple(v))
        return "a tuple, " + text;
    if (pmt::is_dict(v))
        return "a dict, " + text;
    if (pmt::is_pair(v))
        return "a pair, " + text;
    return "the pmt " + text;
}

long long tagged_driver::tag_length(const pmt::pmt_t& v, std::string& why) const
{
    return packet_length(d_len_key, v, why);
}

int tagged_driver::general_work(int noutput_items,
                                gr_vector_int& ninput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    if (!d_holder.pipe()) {
        // start() could not make the pipeline (and logged why): report it
        // and end the stream rather than leave the flowgraph waiting.
        report(d_block.nitems_read(0), "not running: " + d_holder.failure() + "; the stream ends here");
        return gr::block::WORK_DONE;
    }
    d_holder.resume_if_restarted(); // what the last stop held goes out first
    auto& pipe = *d_holder.pipe();
    const auto* in = static_cast<const uint8_t*>(input_items[0]);
    auto* out = static_cast<uint8_t*>(output_items[0]);
    const size_t isz = d_adapter.in_item_bytes(), osz = d_adapter.out_item_bytes();
    const int nin = ninput_items[0];
    const uint64_t r0 = d_block.nitems_read(0);
    int consumed = 0, produced = 0;
    auto* admission = d_adapter.admission();

    auto emit = [&](bool block) {
        while (const auto* f = pipe.front(block)) {
            const int n = int(f->out_bytes / osz);
            if (produced + n > noutput_items)
                break;
            std::memcpy(out + size_t(produced) * osz, f->data, f->out_bytes);
            const uint64_t at = d_block.nitems_written(0) + produced;
            d_tags.add_tag(at, d_len_key, pmt::from_long(n));
            frame_meta meta;
            d_adapter.describe(*f, meta);
            if (admission)
                admission->completed(*f, meta);
            if (d_adapter.uses_frame_metadata()) {
                // The packet's own tags go on with it, as a PDU's metadata does.
                const pmt::pmt_t in = d_frame_meta.front();
                d_frame_meta.pop_front();
                for (pmt::pmt_t items = pmt::dict_items(in); pmt::is_pair(items); items = pmt::cdr(items))
                    d_tags.add_tag(at, pmt::car(pmt::car(items)), pmt::cdr(pmt::car(items)));
            }
            for (const auto& kv : meta)
                d_tags.add_tag(at, kv.first, kv.second);
            produced += n;
            pipe.pop();
            block = false;
        }
    };

    emit(false);
    std::vector<gr::tag_t> tags;
    d_tags.tags_in_window(tags, 0, nin, d_len_key);
    // Stable: tags at one offset keep GNU Radio's order (the order added).
    std::stable_sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
    size_t t = 0;
    while (consumed < nin) {
        const uint64_t pos = r0 + consumed;
        while (t < tags.size() && tags[t].offset < pos)
            t++;
        const bool tag_here = t < tags.size() && tags[t].offset == pos;
        const uint64_t next_tag = t < tags.size() ? tags[t].offset : r0 + nin;

        if (d_packet.open) {
            // A new length tag inside the packet: the packet was cut short.
            if (tag_here) {
                close_truncated("by the next " + pmt::symbol_to_string(d_len_key) + " tag");
                continue;
            }
            const uint64_t left = d_packet.shape.in_items - d_packet.staged;
            const uint64_t take = std::min<uint64_t>(left, next_tag - pos);
            if (!d_packet.bad &&
                !d_adapter.stage(d_packet.shape, in + size_t(consumed) * isz, d_packet.staged,
                                 size_t(take), d_packet.dst + d_packet.staged * isz, d_packet.why))
                d_packet.bad = true;
            d_packet.staged += take;
            consumed += int(take);
            if (d_packet.staged == d_packet.shape.in_items) {
                if (d_packet.bad) {
                    pipe.abort_frame();
                    report(d_packet.start, "packet not processed: " + d_packet.why,
                           (long long)d_packet.shape.in_items);
                } else {
                    commit(pipe);
                }
                d_packet = open_packet{};
            }
            continue;
        }

        if (!tag_here) {
            // Items outside any packet: skip to the next length tag.
            if (!d_skipping)
                report(pos, "items without a " + pmt::symbol_to_string(d_len_key) +
                                " tag: skipped up to the next one");
            d_skipping = true;
            consumed = int(next_tag - r0);
            continue;
        }

        // Several length tags at one item: the first, in the order GNU Radio
        // delivers them (the order they were added), is used; differing
        // values among them are reported.
        size_t t_end = t + 1;
        std::string values = pmt::write_string(tags[t].value);
        bool conflict = false;
        for (; t_end < tags.size() && tags[t_end].offset == pos; t_end++)
            if (!pmt::equal(tags[t_end].value, tags[t].value)) {
                conflict = true;
                values += ", " + pmt::write_string(tags[t_end].value);
            }
        if (conflict)
            report_conflict(pos, values, tags[t].value);
        std::string why;
        const long long L = tag_length(tags[t].value, why);
        frame_shape shape;
        pmt::pmt_t meta = pmt::PMT_NIL;
        if (L >= 0 && d_adapter.uses_frame_metadata())
            meta = frame_tags(pos - r0);
        const bool shaped = L >= 0 && (d_adapter.uses_frame_metadata()
                                           ? d_adapter.shape_frame(uint64_t(L), meta, shape, why)
                                           : d_adapter.shape(uint64_t(L), shape, why));
        if (!shaped) {
            report(pos, why + "; skipped up to the next tag", L);
            d_skipping = true;
            t = t_end;
            const uint64_t after = t < tags.size() ? tags[t].offset : r0 + nin;
            consumed = int(std::max<uint64_t>(after, pos + 1) - r0);
            continue;
        }
        if (!pipe.can_accept())
            break; // every slot busy: wait below
        if (admission && admission->must_wait(shape)) {
            // Its earlier transmission is in the pipeline: launch it, and
            // take this packet up again once it has left (emit()).
            pipe.flush();
            break;
        }
        d_skipping = false;
        d_packet.meta = meta;
        d_packet.open = true;
        d_packet.start = pos;
        d_packet.shape = shape;
        d_packet.dst = pipe.begin_frame(shape.in_items * isz, shape.out_bytes, shape.params.data(), pos);
        while (t < tags.size() && tags[t].offset == pos)
            t++; // its own tag (and any repeat of it) is taken
    }

    pipe.launch_due();
    emit(false);
    if (produced == 0 && pipe.pending() > 0 && (consumed == 0 || !pipe.can_accept())) {
        if (input_finished(d_block, nin - consumed)) {
            if (d_packet.open)
                close_truncated("by the end of the stream");
            pipe.flush();
        }
        pipeline_idle_wait(pipe);
        emit(false);
    }
    d_block.consume_each(consumed);
    return produced;
}

} // namespace gpurx
} // namespace gr
