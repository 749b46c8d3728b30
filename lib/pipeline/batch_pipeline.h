/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The batching pipeline every gr-gpurx decoder runs on. GNU Radio-free.
//
// Frames are appended to the "filling" slot; a slot is launched when it holds
// max_batch frames, when the next frame would not fit, when its oldest frame
// has waited flush_timeout, or on flush(). Up to nslots batches are in flight
// at once (on CUDA each slot has its own stream, so one batch's copies overlap
// another's kernel; with several GPUs, consecutive slots alternate between
// them). Completed frames leave strictly in submission order.
//
// The caller books frames; by default it also copies submit_many()'s input
// into the staging and enqueues each batch. With device_threads, each
// device's batches are staged and launched by threads of that device (on its
// NUMA node), so several GPUs are fed at once; the order is unchanged (the
// slots, each with its frames' sequence numbers, complete in turn).
//
// Per-frame parameters and results are the family's own records
// (pipeline_config::types); the pipeline copies them without reading them.
#ifndef INCLUDED_GPURX_PIPELINE_BATCH_PIPELINE_H
#define INCLUDED_GPURX_PIPELINE_BATCH_PIPELINE_H

#include "pipeline/backend.h"
#include "pipeline/batch_engine.h"
#include "pipeline/frame.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class worker_pool;

struct pipeline_config {
    size_t slots = 3;                  //!< batches in flight per device, >= 1
    size_t max_batch = 64;             //!< frames per batch, >= 1
    size_t max_in_bytes = 0;           //!< largest input of one frame
    size_t max_out_bytes = 0;          //!< largest output of one frame
    std::chrono::microseconds flush_timeout{ 1000 }; //!< 0 = launch every frame at once
    frame_types types;                 //!< the family's parameter and result records
    size_t cpu_threads = 0;            //!< CPU backend workers, 0: one per hardware thread
    //! Host threads that copy frames into the staging in submit_many(),
    //! including the caller: one core copies about 6-10 GB/s, less than
    //! PCIe carries, so a fast device needs several. 1: the caller alone.
    size_t staging_threads = 1;
    /*!
     * Host threads per device that stage and launch that device's batches
     * (0: the caller does, as staging_threads says). With N > 0 each device
     * (each GPU of a multi-GPU engine; the CPU engine is one) has a thread
     * of its own that launches its batches, and N threads in all that copy
     * submit_many()'s frames into its staging, on the GPU's NUMA node where
     * the host has several. The caller then only books frames, so
     * submission, staging and launch of several GPUs run at once; frames
     * still leave in submission order (the slots complete in turn).
     * submit_many() then reads its input when the batch launches, not when
     * it is called: the input must stay valid and unchanged until those
     * frames have come out of front() (or drain() has returned), as for
     * submit_many_in_place(). While a cancel check is set
     * (set_cancel_check()) batches are launched by the caller, which the
     * check must be asked from.
     */
    size_t device_threads = 0;
    //! Time each batch's copies and kernel on its device (stats()); the
    //! timing events cost a little per batch.
    bool profile = false;

    //! Throws std::invalid_argument naming the bad field.
    void validate() const;
    slot_geometry geometry() const;
    //! Host staging bytes of one slot (descriptors, records, data areas).
    size_t slot_bytes() const;
};

//! A completed frame at the head of the pipeline.
struct completed_frame {
    const uint8_t* data; //!< out_bytes of output (zeros for a rejected frame)
    size_t out_bytes;
    const void* result;  //!< the family's result record; nullptr when rejected
    uint64_t seq;        //!< submission sequence number, from 0
    uint64_t user;       //!< the caller's tag given at submission
    bool rejected;       //!< never processed (submit_rejected()): output is zeros

    template <typename R>
    const R* result_as() const
    {
        return static_cast<const R*>(result);
    }
};

//! The pipeline's record of one booked frame (what completed_run reads).
struct frame_entry {
    uint64_t seq;
    uint64_t user;
    int32_t kernel_index; //!< -1: rejected frame
    uint32_t out_bytes;
};

/*!
 * Frames booked at once by begin_frames(): frame i's input goes to
 * data + i * stride (the staging's stride, align16(in_bytes)), in_bytes
 * each. count == 0: none booked.
 */
struct frame_run {
    uint8_t* data = nullptr;
    size_t stride = 0;
    size_t count = 0;
    uint8_t* frame(size_t i) const { return data + i * stride; }
};

/*!
 * Completed frames at the head of the pipeline, oldest first, all of one
 * batch (front_many()). Frame i is built on demand, inline, from the
 * pipeline's records: no call into the pipeline per frame. Valid until the
 * next call that changes the pipeline (pop_many(), submission, ...).
 */
class completed_run
{
public:
    size_t size() const { return d_n; }
    bool empty() const { return d_n == 0; }
    uint64_t seq(size_t i) const { return d_e[i].seq; }
    uint64_t user(size_t i) const { return d_e[i].user; }
    bool rejected(size_t i) const { return d_e[i].kernel_index < 0; }
    size_t out_bytes(size_t i) const { return d_e[i].out_bytes; }
    //! out_bytes(i) of output (zeros for a rejected frame).
    const uint8_t* data(size_t i) const
    {
        const frame_entry& e = d_e[i];
        return e.kernel_index < 0 ? d_zeros : d_out + d_frames[e.kernel_index].out_offset;
    }
    //! The family's result record; nullptr when rejected.
    const void* result(size_t i) const
    {
        const frame_entry& e = d_e[i];
        return e.kernel_index < 0 ? nullptr : d_results + size_t(e.kernel_index) * d_result_bytes;
    }
    template <typename R>
    const R* result_as(size_t i) const
    {
        return static_cast<const R*>(result(i));
    }
    //! Frame i as front() would give it.
    completed_frame operator[](size_t i) const
    {
        const frame_entry& e = d_e[i];
        return { data(i), e.out_bytes, result(i), e.seq, e.user, e.kernel_index < 0 };
    }

private:
    friend class batch_pipeline;
    const frame_entry* d_e = nullptr;
    size_t d_n = 0;
    const frame_desc* d_frames = nullptr;
    const uint8_t* d_out = nullptr;
    const uint8_t* d_results = nullptr;
    size_t d_result_bytes = 0;
    const uint8_t* d_zeros = nullptr;
};

/*!
 * Where one device's batches spent their time, since the pipeline was made
 * or reset_stats(): the host's part (copying frames into the staging,
 * enqueueing the batch, the caller waiting for its completion) and, with
 * pipeline_config::profile, the device's (engine stage times).
 */
struct pipeline_device_stats {
    std::string label;     //!< the engine's name for the device
    std::vector<int> cpus; //!< where its threads run (empty: anywhere)
    uint64_t batches = 0;  //!< launched
    uint64_t frames = 0;   //!< in those batches, rejected ones excluded
    double staged_bytes = 0; //!< copied into its staging by submit_many()
    double copy_s = 0;       //!< wall time of those copies
    double launch_s = 0;     //!< host time enqueueing its batches (launch())
    double wait_s = 0;       //!< time front(true) waited for its batches
    device_stage_times device; //!< from the engine (profile on)
};

class batch_pipeline
{
public:
    using clock = std::chrono::steady_clock;

    batch_pipeline(std::unique_ptr<batch_engine> engine, const pipeline_config& cfg);
    ~batch_pipeline();
    batch_pipeline(const batch_pipeline&) = delete;
    batch_pipeline& operator=(const batch_pipeline&) = delete;

    //! True when submit() can take a frame now (a slot is free or filling).
    bool can_accept() const;

    /*!
     * Copy one frame into the filling slot. \p params points to the family's
     * parameter record (types.param_bytes), passed to the kernel. Returns the
     * frame's sequence number. Requires can_accept(). Throws std::length_error
     * when in_bytes/out_bytes exceed the configured maxima.
     */
    uint64_t submit(const void* in,
                    size_t in_bytes,
                    size_t out_bytes,
                    const void* params,
                    uint64_t user = 0);

    /*!
     * Submit up to \p n frames of one shape at once: frame i's input is
     * \p in_bytes at \p in + i * \p in_stride, all with the same
     * \p params record. Takes as many as the filling slot has room for and
     * returns that count (0 when can_accept() is false); the copies are
     * spread over staging_threads. For producers with many equal frames at
     * hand (a stream block's buffer, a benchmark).
     */
    size_t submit_many(const void* in,
                       size_t in_stride,
                       size_t in_bytes,
                       size_t out_bytes,
                       const void* params,
                       size_t n,
                       uint64_t user = 0);

    /*!
     * submit_many() without the copy into the staging: frame i's input is
     * \p in_bytes at \p in + i * align16(\p in_bytes) (the staging's stride;
     * frames of a multiple of 16 bytes back to back), read from there when
     * the batch launches. On CUDA it goes to the GPU by DMA straight from
     * \p in, at the full PCIe rate when that memory is pinned
     * (pinned_host_region); the CPU engine copies it in at launch. The
     * memory must stay valid and unchanged until the last of these frames
     * has come out of front() (or drain() has returned). Consecutive calls
     * whose frames continue each other in memory become one DMA, which then
     * reads the padding between them too (inside the caller's buffer).
     * Returns the frames taken, as submit_many().
     */
    size_t submit_many_in_place(const void* in,
                                size_t in_bytes,
                                size_t out_bytes,
                                const void* params,
                                size_t n,
                                uint64_t user = 0);

    /*!
     * Zero-copy form of submit(): returns the staging area (pinned on CUDA)
     * where the caller writes the frame's \p in_bytes, then calls
     * commit_frame(). Nothing may be submitted in between; the frame may be
     * written over several calls (a packet arriving in pieces), and no batch
     * is launched while it is open.
     */
    uint8_t* begin_frame(size_t in_bytes, size_t out_bytes, const void* params, uint64_t user = 0);
    //! Completes begin_frame(); returns the frame's sequence number
    //! (after begin_frames(): commit_frames()).
    uint64_t commit_frame();
    //! Withdraws the frame begin_frame() opened (its input proved malformed
    //! while being written): as if begin_frame() had not been called
    //! (after begin_frames(): abort_frames()).
    void abort_frame();
    /*!
     * The parameter record of the frame begin_frame() opened, which the
     * caller may still amend before commit_frame(): for a decision that may
     * be taken only once the frame's input has proved well-formed (the
     * shared channel's HARQ buffer, which a withdrawn frame must not touch).
     * Only with one frame open (begin_frame()).
     */
    void* open_frame_params();

    /*!
     * begin_frame() for up to \p n frames of one shape at once, for a
     * producer with many frames at hand (a stream block, a benchmark): books
     * as many as the filling slot has room for (0 when can_accept() is
     * false) and returns where their inputs go (frame_run: back to back at
     * the staging's stride). Frame i gets the user tag user + i * user_step
     * and the same \p params record. The caller writes the inputs, then
     * commits all of them with commit_frames() (or withdraws them with
     * abort_frames()); nothing may be submitted in between and no batch is
     * launched while they are open. One call books a whole run for about
     * the cost of one begin_frame(): with one caller thread feeding several
     * GPUs, the per-frame bookkeeping bounds the rate.
     */
    frame_run begin_frames(size_t n,
                           size_t in_bytes,
                           size_t out_bytes,
                           const void* params,
                           uint64_t user = 0,
                           uint64_t user_step = 0);
    //! Completes begin_frames() (or begin_frame()): every open frame is
    //! submitted, in order; returns the first one's sequence number.
    uint64_t commit_frames();
    //! Withdraws every open frame (begin_frames() or begin_frame()).
    void abort_frames();

    /*!
     * Record a frame that will not be processed (malformed input). It keeps
     * its place in the output order and comes out as out_bytes of zeros with
     * result.status = FRAME_REJECTED. Requires can_accept().
     */
    uint64_t submit_rejected(size_t out_bytes, uint64_t user = 0);

    //! Launch the filling slot if its oldest frame has waited flush_timeout.
    void launch_due(clock::time_point now = clock::now());
    //! Launch the filling slot now, if it holds any frame.
    void flush();
    //! When the filling slot falls due; clock::time_point::max() when empty.
    clock::time_point next_deadline() const;

    /*!
     * The oldest frame, if complete. With \p block, waits for its batch when
     * that batch is in flight (never launches a partial batch by itself).
     * nullptr when the oldest frame is not complete (or there is none).
     */
    const completed_frame* front(bool block = false);
    //! Remove the frame front() returned.
    void pop();

    /*!
     * front() for many frames: the completed frames at the head, oldest
     * first, at most \p max, all from the oldest batch (the next batch's
     * frames come with the next call, once these are popped). Empty when the
     * oldest frame is not complete. With \p block, waits for the oldest
     * batch when it is in flight, as front(true). Taking frames out a batch
     * at a time asks the engine once per batch, not once per frame.
     */
    completed_run front_many(bool block = false, size_t max = SIZE_MAX);
    //! Removes the first \p n frames of the run front_many() returned
    //! (n <= its size); pop_many(1) is pop().
    void pop_many(size_t n);

    //! Launch everything and wait for all of it. Completed frames stay
    //! available through front()/pop(). A frame still open (begin_frame()
    //! without commit_frame()) is withdrawn first. Batches held by a cancel
    //! are launched again first (resume()); a batch cancelled again during
    //! the drain stays held.
    void drain();

    /*!
     * A check the engine asks while a batch runs on the host (the CPU
     * engine, between work items; see batch_engine::set_cancel_check()).
     * When it says stop, the batch is cancelled: none of its frames is lost,
     * they stay in the pipeline, and the pipeline holds from then on: it
     * accepts no frame (can_accept() is false) and launches nothing until
     * resume(). Used to stop a long batch when its block is stopped.
     */
    void set_cancel_check(std::function<bool()> check);
    //! A batch was cancelled and the pipeline holds (see set_cancel_check()).
    bool held() const { return d_held; }
    /*!
     * Ends a hold: launches the cancelled batches again, oldest first, then
     * the filling slot (its frames have waited long enough). Returns false
     * when one was cancelled again (the pipeline holds again).
     */
    bool resume();
    //! Waits for the batches in flight without launching the filling slot
    //! (what a stop needs: the rest waits for the next start).
    void wait_in_flight();
    //! Frames submitted but not yet run to completion: in the filling slot
    //! or in cancelled batches (a part of pending()).
    size_t unfinished() const;

    size_t pending() const { return d_pending; }  //!< submitted, not yet popped
    bool has_unlaunched() const;                   //!< frames waiting in the filling slot
    bool front_in_flight() const;                  //!< oldest frame's batch is launched
    bool frame_open() const { return d_open > 0; } //!< between begin_frame(s)() and commit_frame(s)()
    const pipeline_config& config() const { return d_cfg; }
    std::string engine_name() const { return d_engine->name(); }
    //! Per device of the engine, in the engine's order.
    std::vector<pipeline_device_stats> stats() const;
    //! Starts the figures of stats() again (the engine's too, with profile):
    //! best called with no batch in flight, which would be counted in part.
    void reset_stats();

private:
    //! cancelled: launched, stopped early by the cancel check; launched
    //! again by resume().
    enum class slot_state { free, filling, in_flight, done, cancelled };
    //! submit_many() frames whose copy into the staging is left to the device threads.
    struct copy_job {
        size_t first_in;   //!< staging offset of the first frame
        const uint8_t* src;
        size_t src_stride;
        size_t in_bytes;
        size_t n;
    };
    struct device_worker;
    using entry = frame_entry;
    struct slot {
        slot_state state = slot_state::free;
        std::vector<entry> entries;
        size_t nkernel = 0;     // frames handed to the kernel
        size_t in_used = 0;
        size_t out_used = 0;
        size_t read = 0;        // next entry to pop
        std::vector<input_run> runs; // input left in the caller's memory (submit_many_in_place)
        std::vector<copy_job> copies; // submit_many()'s copies left to the device threads
        // Handed to a device thread (device_threads > 0): until it has
        // launched the batch (staged == true, under d_async_mutex), the
        // engine is not asked about the slot.
        bool queued = false;
        bool staged = false;
        std::exception_ptr error; // the device thread's staging or launch failed
        clock::time_point first_submit;
        // The engine's staging of this slot, fixed for the pipeline's life:
        // looked up once, not per frame (a frame costs ~0.3 us at 17 Gbit/s).
        frame_desc* frames = nullptr;
        uint8_t* params = nullptr;
        uint8_t* in = nullptr;
        const uint8_t* results = nullptr;
        const uint8_t* out = nullptr;
    };

    slot& filling_slot();
    //! Descriptors, parameters and entries of \p m equal frames (sequence
    //! numbers from d_next_seq, user tags user + i * user_step), not yet
    //! counted as submitted; returns the input offset of the first.
    size_t book_frames(slot& s,
                       size_t in_bytes,
                       size_t out_bytes,
                       const void* params,
                       size_t m,
                       uint64_t user,
                       uint64_t user_step);
    //! The head slot when its frames can be taken out (front()), else nullptr.
    slot* head_done(bool block);
    //! The start of submit_many() and submit_many_in_place(): the checks, then
    //! book_frames() for as many of the \p n frames as the filling slot takes.
    //! Returns that count (0: none taken) and the first one's input offset.
    size_t open_frames(const char* caller,
                       size_t in_bytes,
                       size_t out_bytes,
                       const void* params,
                       size_t n,
                       uint64_t user,
                       size_t& first_in);
    void check_sizes(size_t in_bytes, size_t out_bytes) const;
    void launch(size_t index);
    void run_slot(size_t index); // hands the slot's batch to the engine
    void launch_if_full(slot& s);
    void advance_fill();
    //! Copies the slot's submit_many() frames into its staging with \p pool
    //! (nullptr: the calling thread alone); returns the bytes copied.
    size_t stage_copies(slot& s, worker_pool* pool);
    //! Waits until the device thread has launched slot \p s (or failed:
    //! then the slot is held as a cancelled one and the error rethrown).
    //! False when \p block is false and it has not yet.
    bool await_staged(size_t index, bool block);
    void start_workers();
    void stop_workers();
    void worker_loop(size_t device);
    //! Waits for every batch handed to a device thread to be launched.
    void await_all_staged();
    bool async() const { return !d_workers.empty() && !d_cancel_set; }

    std::unique_ptr<batch_engine> d_engine;
    pipeline_config d_cfg;
    std::vector<slot> d_slots;
    std::vector<uint8_t> d_zeros; // output of rejected frames
    std::unique_ptr<worker_pool> d_stager; // submit_many()'s copiers, made on first need
    size_t d_fill = 0;            // slot being filled (or next to fill)
    size_t d_head = 0;            // slot holding the oldest frame
    uint64_t d_next_seq = 0;
    size_t d_open = 0;            // frames booked by begin_frame(s)(), not yet committed
    bool d_held = false;          // a batch was cancelled: launch nothing until resume()
    size_t d_pending = 0;
    completed_frame d_front{};

    // Device threads (device_threads > 0). d_async_mutex guards their
    // queues, the slots' queued/staged/error and d_stats.
    std::vector<std::unique_ptr<device_worker>> d_workers;
    mutable std::mutex d_async_mutex;
    std::condition_variable d_staged_cv;
    bool d_quit = false;
    bool d_cancel_set = false; // a cancel check is set: the caller launches
    std::vector<pipeline_device_stats> d_stats;
};

//! How a family's kernels are made, for either backend.
struct kernel_factories {
    cpu_kernel_factory cpu;
    cuda_kernel_factory cuda;
};

//! The machine's RAM in bytes (0 when it cannot be read).
size_t host_memory_bytes();
//! \p bytes as "N.NN GiB", for the memory checks' messages.
std::string gib(size_t bytes);

/*!
 * Throws std::invalid_argument naming max_batch, with the memory it would
 * take, when the staging of \p cfg on \p where would not fit the machine.
 */
void check_pipeline_memory(const pipeline_config& cfg, const backend_choice& where);

/*!
 * A pipeline on the backend \p where names (on CUDA: cfg.slots slots per
 * listed device). Throws std::invalid_argument naming max_batch, with the
 * memory it would take, when the staging would not fit the machine.
 */
std::unique_ptr<batch_pipeline>
make_pipeline(const kernel_factories& kernels, const backend_choice& where, const pipeline_config& cfg);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
