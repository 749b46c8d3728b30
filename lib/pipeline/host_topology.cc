/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/host_topology.h"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace gr {
namespace gpurx {
namespace core {

namespace {
bool read_line(const std::string& path, std::string& line)
{
    std::ifstream f(path);
    return f && std::getline(f, line);
}
} // namespace

int numa_node_count()
{
    std::string line;
    // "possible" lists every node the kernel knows, "online" those with memory or CPUs.
    if (!read_line("/sys/devices/system/node/online", line))
        return 1;
    const auto cpus = parse_cpulist(line); // same syntax as a cpulist
    return cpus.empty() ? 1 : int(cpus.size());
}

int pci_numa_node(const std::string& bus_id)
{
    std::string id = bus_id;
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    // CUDA may write an 8-digit domain ("00000000:18:00.0"); sysfs has 4.
    const size_t colon = id.find(':');
    if (colon != std::string::npos && colon > 4)
        id = id.substr(colon - 4);
    std::string line;
    if (!read_line("/sys/bus/pci/devices/" + id + "/numa_node", line))
        return -1;
    try {
        return std::stoi(line);
    } catch (...) {
        return -1;
    }
}

std::vector<int> numa_node_cpus(int node)
{
    std::string line;
    if (node < 0 || !read_line("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist", line))
        return {};
    return parse_cpulist(line);
}

std::vector<int> parse_cpulist(const std::string& list)
{
    std::vector<int> cpus;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) {
        item.erase(std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }),
                   item.end());
        if (item.empty())
            continue;
        try {
            const size_t dash = item.find('-');
            size_t used = 0;
            const int a = std::stoi(item.substr(0, dash), &used);
            if (used != (dash == std::string::npos ? item.size() : dash))
                return {};
            int b = a;
            if (dash != std::string::npos) {
                const std::string rest = item.substr(dash + 1);
                b = std::stoi(rest, &used);
                if (used != rest.size())
                    return {};
            }
            if (a < 0 || b < a || b > 65535)
                return {};
            for (int c = a; c <= b; c++)
                cpus.push_back(c);
        } catch (...) {
            return {};
        }
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

std::string format_cpulist(const std::vector<int>& cpus)
{
    std::string s;
    for (size_t i = 0; i < cpus.size();) {
        size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            j++;
        s += (s.empty() ? "" : ",") + std::to_string(cpus[i]);
        if (j > i)
            s += "-" + std::to_string(cpus[j]);
        i = j + 1;
    }
    return s;
}

std::vector<int> thread_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return {};
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus.push_back(c);
    return cpus;
}

bool pin_thread(const std::vector<int>& cpus)
{
    if (cpus.empty())
        return true;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus)
        if (c >= 0 && c < CPU_SETSIZE)
            CPU_SET(c, &set);
    // pid 0: the calling thread (sched_setaffinity is per thread on Linux).
    return sched_setaffinity(0, sizeof(set), &set) == 0;
}

scoped_thread_pin::scoped_thread_pin(const std::vector<int>& cpus)
{
    if (cpus.empty())
        return;
    d_saved = thread_cpus();
    d_pinned = !d_saved.empty() && pin_thread(cpus);
}

scoped_thread_pin::~scoped_thread_pin()
{
    if (d_pinned)
        pin_thread(d_saved);
}

} // namespace core
} // namespace gpurx
} // namespace gr
