/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CPU engine's persistent worker pool: every item runs exactly once, on a
// valid worker, no worker runs two items at once, threads are started once for
// the pool's life, and an exception reaches the caller.
#include "pipeline/worker_pool.h"
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>
#include <string>

#include <atomic>
#include <thread>
#include <stdexcept>
#include <vector>

using gr::gpurx::core::worker_pool;

TEST(WorkerPool, EveryItemOnceOnAValidWorker)
{
    worker_pool pool(4);
    EXPECT_EQ(pool.size(), 4u);
    EXPECT_EQ(pool.threads_started(), 3u);
    for (size_t n : { 0, 1, 3, 4, 100, 1000 }) {
        std::vector<std::atomic<int>> hits(n);
        std::vector<std::atomic<int>> busy(pool.size());
        std::atomic<bool> overlap{ false };
        pool.parallel_for(n, [&](size_t i, size_t w) {
            ASSERT_LT(w, pool.size());
            if (busy[w].fetch_add(1) != 0)
                overlap = true;
            hits[i]++;
            busy[w]--;
        });
        for (size_t i = 0; i < n; i++)
            ASSERT_EQ(hits[i].load(), 1) << "item " << i << " of " << n;
        EXPECT_FALSE(overlap) << "a worker ran two items at once";
    }
    EXPECT_EQ(pool.threads_started(), 3u) << "threads must persist across batches";
}

TEST(WorkerPool, ManyBatchesReuseTheThreads)
{
    worker_pool pool(3);
    std::atomic<long> sum{ 0 };
    for (int b = 0; b < 2000; b++)
        pool.parallel_for(7, [&](size_t i, size_t) { sum += long(i); });
    EXPECT_EQ(sum.load(), 2000L * 21);
    EXPECT_EQ(pool.threads_started(), 2u);
}

TEST(WorkerPool, ExceptionReachesTheCaller)
{
    worker_pool pool(2);
    std::atomic<int> ran{ 0 };
    EXPECT_THROW(pool.parallel_for(50,
                                   [&](size_t i, size_t) {
                                       ran++;
                                       if (i == 17)
                                           throw std::runtime_error("item 17");
                                   }),
                 std::runtime_error);
    EXPECT_EQ(ran.load(), 50) << "the other items still run";
    pool.parallel_for(5, [&](size_t, size_t) { ran++; }); // usable afterwards
    EXPECT_EQ(ran.load(), 55);
}

TEST(WorkerPool, SizedFromTheMachine)
{
    worker_pool pool(0);
    EXPECT_GE(pool.size(), 1u);
    EXPECT_EQ(pool.size(), worker_pool::resolve(0));
}

// With a cancel check set, worker 0 asks it outside the pool's lock; the
// other workers may take the last items meanwhile. No item may run twice or
// beyond the range (an index past n crashed the CPU backend on a 16-core
// host). Many workers on few cores make the window wide.
TEST(WorkerPool, CancelCheckNeverHandsOutAnItemTwiceOrPastTheEnd)
{
    worker_pool pool(16);
    pool.set_cancel_check([] {
        std::this_thread::yield();
        return false;
    });
    for (int round = 0; round < 300; round++) {
        const size_t n = 1 + size_t(round % 37);
        std::vector<std::atomic<int>> hits(n);
        std::atomic<size_t> beyond{ 0 };
        pool.parallel_for(n, [&](size_t i, size_t) {
            if (i >= n) {
                beyond++;
                return;
            }
            hits[i]++;
            std::this_thread::yield();
        });
        ASSERT_EQ(beyond.load(), 0u) << "round " << round << ": an item index past " << n;
        for (size_t i = 0; i < n; i++)
            ASSERT_EQ(hits[i].load(), 1) << "round " << round << ", item " << i << " of " << n;
    }
}

// Threads that cannot start (no address space left for their stacks, as a
// huge staging under RLIMIT_AS leaves it on a many-core host) make the
// constructor throw, naming what to lower; the threads already started are
// stopped. It used to hang destroying the condition variable they waited
// on. In a child process, so that the limit binds nothing else.
TEST(WorkerPool, ThreadsThatCannotStartThrowAndLeaveNothingWaiting)
{
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        alarm(20); // a hang ends the child by SIGALRM
        std::ifstream status("/proc/self/status");
        std::string line;
        size_t vm_kb = 0;
        while (std::getline(status, line))
            if (line.rfind("VmSize:", 0) == 0)
                vm_kb = std::stoul(line.substr(7));
        const rlim_t limit = rlim_t(vm_kb + 64 * 1024) * 1024; // 64 MiB more: a few 8 MiB stacks
        const rlimit rl{ limit, limit };
        if (vm_kb == 0 || setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        try {
            worker_pool pool(64);
            _exit(pool.size() == 64 ? 4 : 5); // every thread started: the limit did not bind
        } catch (const std::runtime_error& e) {
            _exit(std::string(e.what()).find("cpu_threads") != std::string::npos ? 0 : 6);
        } catch (...) {
            _exit(7);
        }
    }
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT_TRUE(WIFEXITED(st)) << "the child hung (signal " << (WIFSIGNALED(st) ? WTERMSIG(st) : 0) << ")";
    EXPECT_EQ(WEXITSTATUS(st), 0) << "3: no limit set; 4, 5: every thread started; 6: message; 7: other exception";
}
