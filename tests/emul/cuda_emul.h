/* A host emulation of the CUDA execution model, enough to run block-synchronous kernels of
 * src/cuda on the CPU in a test: blockIdx / threadIdx / blockDim / gridDim (thread-local),
 * __syncthreads (a barrier over the block's threads), __shared__ (one copy, shared by the block:
 * blocks run one after another), and emul_launch (a block's threads are OS threads, all started
 * before any barrier). With tests/emul/ptx_emul.h for the field arithmetic underneath.
 *
 * It checks a kernel's logic (indexing, barriers, the data each thread reads and writes, the
 * results); not its speed, nor races between blocks (they never overlap here), nor warp-level
 * behaviour (there is none: no shuffles or votes may be used by a kernel run this way). */
#ifndef CUZK_TESTS_EMUL_CUDA_EMUL_H
#define CUZK_TESTS_EMUL_CUDA_EMUL_H

#include "emul/ptx_emul.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define __global__
#define __shared__ static
#define __launch_bounds__(...)

struct emul_dim3 {
    unsigned x, y, z;
};
inline thread_local emul_dim3 blockIdx, threadIdx, blockDim, gridDim;

/* a reusable barrier for the n threads of one block */
struct emul_barrier {
    std::mutex mu;
    std::condition_variable cv;
    unsigned n = 0, waiting = 0, generation = 0;
    void wait() {
        std::unique_lock<std::mutex> lk(mu);
        const unsigned gen = generation;
        if (++waiting == n) {
            waiting = 0;
            generation++;
            cv.notify_all();
        } else {
            cv.wait(lk, [&] { return generation != gen; });
        }
    }
};
inline thread_local emul_barrier *emul_block_barrier = nullptr;
inline void __syncthreads() { emul_block_barrier->wait(); }

/* kernel<<<grid, block>>>(...) as emul_launch(grid, block, [&] { kernel(...); }): blocks in order,
 * each block's threads concurrently (a thread that returns early must not leave others waiting at
 * a barrier: CUDA has the same rule for the kernels run here, whose early returns are whole-block) */
inline void emul_launch(unsigned grid, unsigned block, const std::function<void()> &body) {
    for (unsigned b = 0; b < grid; b++) {
        emul_barrier bar;
        bar.n = block;
        std::vector<std::thread> th;
        th.reserve(block);
        for (unsigned t = 0; t < block; t++)
            th.emplace_back([&, b, t] {
                blockIdx = {b, 0, 0};
                threadIdx = {t, 0, 0};
                blockDim = {block, 1, 1};
                gridDim = {grid, 1, 1};
                emul_block_barrier = &bar;
                body();
            });
        for (auto &x : th) x.join();
    }
}

#endif
