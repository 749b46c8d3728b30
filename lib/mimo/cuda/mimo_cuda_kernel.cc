#include "mimo/cuda/mimo_cuda_kernel.h"
namespace gr { namespace gpurx { namespace core {
std::vector<implementation<mimo_config>> mimo_cuda_implementations() { return {}; }
}}}
