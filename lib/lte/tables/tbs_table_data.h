/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// 36.213's TBS tables as data (tbs_table_data.cc says where the numbers come
// from); tables.h is what callers use.
#ifndef INCLUDED_GPURX_LTE_TABLES_TBS_TABLE_DATA_H
#define INCLUDED_GPURX_LTE_TABLES_TBS_TABLE_DATA_H

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace tables {

//! Table 7.1.7.2.1-1: [I_TBS][N_PRB - 1].
extern const int tbs_one_layer[34][110];

struct tbs_translation {
    int l1; //!< TBS_L1
    int ln; //!< the N-layer TBS
};
//! Tables 7.1.7.2.2-1, 7.1.7.2.4-1, 7.1.7.2.5-1, sorted by TBS_L1.
extern const tbs_translation tbs_two_layers[];
extern const int tbs_two_layers_count;
extern const tbs_translation tbs_three_layers[];
extern const int tbs_three_layers_count;
extern const tbs_translation tbs_four_layers[];
extern const int tbs_four_layers_count;

} // namespace tables
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif
