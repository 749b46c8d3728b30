/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Where a PCI device sits on the host's NUMA nodes, and pinning threads to a
// node's CPUs: read from sysfs, so no libnuma is needed. On a host of one
// node (or without sysfs) every answer is "no preference", and nothing is
// pinned.
#ifndef INCLUDED_GPURX_PIPELINE_HOST_TOPOLOGY_H
#define INCLUDED_GPURX_PIPELINE_HOST_TOPOLOGY_H

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! NUMA nodes of the host (/sys/devices/system/node/nodeN); 1 when unknown.
int numa_node_count();

/*!
 * The NUMA node of the PCI device \p bus_id ("0000:18:00.0", any case, as
 * cudaDeviceGetPCIBusId writes it); -1 when unknown (sysfs says -1 on hosts
 * of one node).
 */
int pci_numa_node(const std::string& bus_id);

//! The CPUs of NUMA node \p node (its cpulist); empty when unknown.
std::vector<int> numa_node_cpus(int node);

//! Parses a sysfs cpulist ("0-3,8,10-11"); empty on a malformed one.
std::vector<int> parse_cpulist(const std::string& list);

//! "0-3,8" for {0,1,2,3,8}.
std::string format_cpulist(const std::vector<int>& cpus);

//! The calling thread's allowed CPUs (empty when they cannot be read).
std::vector<int> thread_cpus();

/*!
 * Restricts the calling thread to \p cpus (threads it starts afterwards
 * inherit that). Empty: leaves it as it is. Returns false when the kernel
 * refused (the thread then runs where it ran).
 */
bool pin_thread(const std::vector<int>& cpus);

//! Pins the calling thread to \p cpus for its lifetime, then restores it.
class scoped_thread_pin
{
public:
    explicit scoped_thread_pin(const std::vector<int>& cpus);
    ~scoped_thread_pin();
    scoped_thread_pin(const scoped_thread_pin&) = delete;
    scoped_thread_pin& operator=(const scoped_thread_pin&) = delete;

private:
    std::vector<int> d_saved;
    bool d_pinned = false;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif
