/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "scale_out/endpoint.h"
#include "scale_out/harq_key.h"
#include "scale_out/hash64.h"

#include <cctype>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace scale_out {

uint64_t harq_shard_key(int64_t rnti, int64_t harq_process, int64_t codeword)
{
    uint8_t b[24];
    const int64_t v[3] = { rnti, harq_process, codeword };
    for (int f = 0; f < 3; ++f)
        for (int i = 0; i < 8; ++i)
            b[8 * f + i] = uint8_t(uint64_t(v[f]) >> (56 - 8 * i));
    return hash64(b, sizeof b);
}

const char* const endpoint_form =
    "tcp://host:port (port 1..65535), ipc://path or inproc://name";

namespace {

bool host_ok(const std::string& h)
{
    if (h == "*")
        return true;
    if (h.size() >= 2 && h.front() == '[' && h.back() == ']') {
        for (size_t i = 1; i + 1 < h.size(); ++i) {
            const char c = h[i];
            if (!(std::isxdigit((unsigned char)c) || c == ':' || c == '.'))
                return false;
        }
        return h.size() > 2;
    }
    for (char c : h)
        if (!(std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-'))
            return false;
    return !h.empty();
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

} // namespace

std::string endpoint_problem(const std::string& endpoint, bool bind)
{
    const auto sep = endpoint.find("://");
    if (sep == std::string::npos)
        return "the transport must be tcp, ipc or inproc";
    const std::string scheme = endpoint.substr(0, sep);
    const std::string address = endpoint.substr(sep + 3);
    if (scheme != "tcp" && scheme != "ipc" && scheme != "inproc")
        return "the transport must be tcp, ipc or inproc";
    bool blank = true;
    for (char c : address)
        blank = blank && is_space(c);
    if (address.empty() || blank)
        return "no address";
    if (is_space(address.front()) || is_space(address.back()))
        return "spaces around the address";
    if (scheme != "tcp")
        return "";
    const auto colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0)
        return "no host:port";
    const std::string host = address.substr(0, colon);
    const std::string port = address.substr(colon + 1);
    if (!host_ok(host))
        return "host '" + host + "' is not a host name or address";
    if (host == "*" && !bind)
        return "host * only where this side binds";
    if (port == "*")
        return bind ? "" : "port * only where this side binds";
    bool digits = !port.empty() && port.size() <= 18;
    for (char c : port)
        digits = digits && c >= '0' && c <= '9';
    if (!digits || std::stoll(port) < 1 || std::stoll(port) > 65535)
        return "port '" + port + "' is not in 1..65535";
    return "";
}

void check_endpoint(const std::string& who,
                    const std::string& param,
                    const std::string& endpoint,
                    bool bind)
{
    const std::string why = endpoint_problem(endpoint, bind);
    if (!why.empty())
        throw std::invalid_argument(who + ": " + param + " '" + endpoint +
                                    "' is not a ZMQ endpoint: " + why + " (" +
                                    endpoint_form + ")");
}

} // namespace scale_out
} // namespace gpurx
} // namespace gr
