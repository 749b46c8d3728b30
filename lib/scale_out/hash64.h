/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The scale-out path's stable hash (python/gpurx/shard_ring.py hash64):
// BLAKE2b with an 8-byte digest read big-endian, the same in every process
// and on every host, and the shard keys built on it.
#ifndef INCLUDED_GPURX_SCALE_OUT_HASH64_H
#define INCLUDED_GPURX_SCALE_OUT_HASH64_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {
namespace scale_out {

//! BLAKE2b (RFC 7693), digest 8 bytes, read as a big-endian integer.
uint64_t hash64(const void* data, size_t len);
inline uint64_t hash64(const std::string& s) { return hash64(s.data(), s.size()); }

//! Where an integer key sits on the ring: hash64 of its 8 big-endian bytes.
uint64_t key_point(uint64_t key);

//! hash64("<endpoint>#<i>"): the i-th virtual node of an endpoint.
uint64_t vnode_point(const std::string& endpoint, int i);

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif
