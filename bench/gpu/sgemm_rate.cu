/* The card's reference rates for issue 20's benchmark: cuBLAS SGEMM on square
 * products, fp32 with TF32 off (CUBLAS_PEDANTIC_MATH: the numbers paddlec's GPU
 * build promises by default) and with TF32 allowed (--allow-tf32), each the
 * median of timed products after warm-up, on random data.  Also names the
 * library versions the GPU build links (cuBLAS, cuDNN, NCCL), so a machine's
 * image is checked before GPU code is planned around it.
 *
 *     nvcc -O2 -arch=sm_90 -o sgemm_rate bench/gpu/sgemm_rate.cu -lcublas -lcudnn -lnccl
 *     ./sgemm_rate [N ...]          (default 1024 2048 4096 8192)
 *
 * Exits 77 with a message when no GPU is present. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call)                                                                  \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "sgemm_rate: %s: %s\n", #call, cudaGetErrorString(err_));  \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

#define BLAS_OK(call)                                                                  \
    do {                                                                               \
        cublasStatus_t st_ = (call);                                                   \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                            \
            fprintf(stderr, "sgemm_rate: %s: cuBLAS status %d\n", #call, (int)st_);    \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

enum { WARMUP = 3, REPEAT = 10 };

__global__ void fill_random(float *x, size_t n, unsigned seed)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 16;
        h *= 0x7feb352du;
        h ^= h >> 15;
        x[i] = (float)(h & 0xffffff) / 16777216.0f - 0.5f;
    }
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median milliseconds of one n x n x n SGEMM under the handle's math mode. */
static float median_ms(cublasHandle_t h, int n, const float *a, const float *b, float *c)
{
    const float one = 1.0f, zero = 0.0f;
    float ms[REPEAT];
    cudaEvent_t t0, t1;
    CUDA_OK(cudaEventCreate(&t0));
    CUDA_OK(cudaEventCreate(&t1));
    for (int i = 0; i < WARMUP; i++)
        BLAS_OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
    for (int i = 0; i < REPEAT; i++) {
        CUDA_OK(cudaEventRecord(t0));
        BLAS_OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
        CUDA_OK(cudaEventRecord(t1));
        CUDA_OK(cudaEventSynchronize(t1));
        CUDA_OK(cudaEventElapsedTime(&ms[i], t0, t1));
    }
    CUDA_OK(cudaEventDestroy(t0));
    CUDA_OK(cudaEventDestroy(t1));
    qsort(ms, REPEAT, sizeof ms[0], by_value);
    return ms[REPEAT / 2];
}

int main(int argc, char **argv)
{
    static const int default_sizes[] = {1024, 2048, 4096, 8192};
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "sgemm_rate: no GPU found (cudaGetDeviceCount); nothing measured\n");
        return 77;
    }
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    int blas_version = 0, nccl_version = 0, runtime_version = 0, driver_version = 0;
    cublasHandle_t h;
    BLAS_OK(cublasCreate(&h));
    BLAS_OK(cublasGetVersion(h, &blas_version));
    ncclGetVersion(&nccl_version);
    CUDA_OK(cudaRuntimeGetVersion(&runtime_version));
    CUDA_OK(cudaDriverGetVersion(&driver_version));
    printf("device: %s, %d SMs, sm_%d%d, %.1f GiB\n", prop.name, prop.multiProcessorCount,
           prop.major, prop.minor, prop.totalGlobalMem / 1073741824.0);
    printf("CUDA runtime %d, driver API %d, cuBLAS %d, cuDNN %zu, NCCL %d\n", runtime_version,
           driver_version, blas_version, cudnnGetVersion(), nccl_version);

    int nsizes = argc > 1 ? argc - 1 : (int)(sizeof default_sizes / sizeof default_sizes[0]);
    printf("| n | fp32 (TF32 off) ms | TFLOP/s | TF32 allowed ms | TFLOP/s |\n");
    printf("|---|---|---|---|---|\n");
    for (int s = 0; s < nsizes; s++) {
        int n = argc > 1 ? atoi(argv[s + 1]) : default_sizes[s];
        if (n <= 0) {
            fprintf(stderr, "sgemm_rate: size '%s' is not a positive integer\n", argv[s + 1]);
            return 2;
        }
        size_t elems = (size_t)n * n;
        float *a, *b, *c;
        CUDA_OK(cudaMalloc(&a, elems * sizeof(float)));
        CUDA_OK(cudaMalloc(&b, elems * sizeof(float)));
        CUDA_OK(cudaMalloc(&c, elems * sizeof(float)));
        unsigned blocks = (unsigned)((elems + 255) / 256);
        fill_random<<<blocks, 256>>>(a, elems, 1u);
        fill_random<<<blocks, 256>>>(b, elems, 2u);
        CUDA_OK(cudaGetLastError());
        double flop = 2.0 * n * (double)n * n;
        BLAS_OK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
        float fp32 = median_ms(h, n, a, b, c);
        BLAS_OK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
        float tf32 = median_ms(h, n, a, b, c);
        printf("| %d | %.3f | %.1f | %.3f | %.1f |\n", n, fp32, flop / fp32 / 1e9, tf32,
               flop / tf32 / 1e9);
        CUDA_OK(cudaFree(a));
        CUDA_OK(cudaFree(b));
        CUDA_OK(cudaFree(c));
    }
    BLAS_OK(cublasDestroy(h));
    return 0;
}
