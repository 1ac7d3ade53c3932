package io.fairledger.core.grant;

/**
 * An allocation-free sort of an index array by double keys, or of parallel arrays by their first (the water-level
 * sweep's hot path, where boxing comparators dominated): quicksort with a median-of-three pivot, recursing into the
 * smaller side, insertion sort below 17 elements. O(n log n) expected, O(log n) stack; not stable (callers break ties
 * themselves).
 */
final class PrimitiveSort {
    private PrimitiveSort() {
    }

    static void byKey(int[] idx, double[] key) {
        quick(idx, key, 0, idx.length - 1);
    }

    /** Sorts the first {@code n} entries of {@code key} ascending, moving {@code a} and {@code b} along. */
    static void together(double[] key, double[] a, double[] b, int n) {
        quickTogether(key, a, b, 0, n - 1);
    }

    private static void quickTogether(double[] key, double[] a, double[] b, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            double pivot = median(key[lo], key[mid], key[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (key[i] < pivot) {
                    i++;
                }
                while (key[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(key, i, j);
                    swap(a, i, j);
                    swap(b, i, j);
                    i++;
                    j--;
                }
            }
            if (j - lo < hi - i) {
                quickTogether(key, a, b, lo, j);
                lo = i;
            } else {
                quickTogether(key, a, b, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            double k = key[i];
            double va = a[i];
            double vb = b[i];
            int j = i - 1;
            while (j >= lo && key[j] > k) {
                key[j + 1] = key[j];
                a[j + 1] = a[j];
                b[j + 1] = b[j];
                j--;
            }
            key[j + 1] = k;
            a[j + 1] = va;
            b[j + 1] = vb;
        }
    }

    private static void swap(double[] x, int i, int j) {
        double t = x[i];
        x[i] = x[j];
        x[j] = t;
    }

    private static void quick(int[] a, double[] key, int lo, int hi) {
        while (hi - lo > 16) {
            int mid = (lo + hi) >>> 1;
            double pivot = median(key[a[lo]], key[a[mid]], key[a[hi]]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (key[a[i]] < pivot) {
                    i++;
                }
                while (key[a[j]] > pivot) {
                    j--;
                }
                if (i <= j) {
                    int t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                    i++;
                    j--;
                }
            }
            if (j - lo < hi - i) {
                quick(a, key, lo, j);
                lo = i;
            } else {
                quick(a, key, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            int v = a[i];
            double k = key[v];
            int j = i - 1;
            while (j >= lo && key[a[j]] > k) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    private static double median(double x, double y, double z) {
        return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    }
}
