/* Curve-independent parts of the CPU MSM (src/msm/msm.h): window choice. */
#include "msm/msm.h"

#define MSM_MAX_WINDOW 20 /* buckets per thread: 2^19 * 192 B (G1) = 96 MiB, 2^19 * 384 B (G2) */

int msm_windows(int c) {
    int nwin = (256 + c - 1) / c;
    if (nwin * c == 256 && c < 4) nwin++;
    return nwin;
}

int msm_window_bits(size_t n) {
    if (n < 8) return 2;
    /* cost ~ nwin * (n mixed additions + 2^c full additions for the running sum) */
    int best = 2;
    double best_cost = 0;
    for (int c = 2; c <= MSM_MAX_WINDOW; c++) {
        double cost = (double)msm_windows(c) * ((double)n + 1.3 * (double)((size_t)1 << c));
        if (c == 2 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

