/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app_output.h"

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

bool is_file(const std::string& p)
{
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string exe_dir(const char* argv0)
{
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    std::string p = n > 0 ? std::string(buf, size_t(n)) : std::string(argv0);
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

} // namespace

csv_file::csv_file(const std::string& option, const std::string& path, const std::string& header)
    : d_option(option), d_path(path)
{
    if (path.empty())
        return;
    d_f = std::fopen(path.c_str(), "w");
    if (!d_f)
        throw std::runtime_error(option + ": cannot write \"" + path + "\": " + std::strerror(errno));
    row("%s", header.c_str());
}

csv_file::~csv_file()
{
    if (d_f)
        std::fclose(d_f);
}

void csv_file::row(const char* format, ...)
{
    if (!d_f)
        return;
    va_list ap;
    va_start(ap, format);
    const int n = std::vfprintf(d_f, format, ap);
    va_end(ap);
    if (n < 0 || std::fputc('\n', d_f) == EOF || std::fflush(d_f) != 0)
        throw std::runtime_error(d_option + ": cannot write \"" + d_path + "\": " + std::strerror(errno));
}

void csv_file::close()
{
    if (!d_f)
        return;
    const bool bad = std::ferror(d_f) != 0;
    const bool close_failed = std::fclose(d_f) != 0;
    d_f = nullptr;
    if (bad || close_failed)
        throw std::runtime_error(d_option + ": writing \"" + d_path + "\" failed");
}

std::string find_script(const char* argv0, const std::string& name, const char* source_folder)
{
    const std::string dir = exe_dir(argv0);
    const std::string libexec = GPURX_LIBEXEC_DIR;
    const std::vector<std::string> candidates = {
        dir + "/" + name,
        (libexec.size() && libexec[0] == '/' ? libexec : dir + "/../" + libexec) + "/" + name,
        std::string(GPURX_SOURCE_DIR) + "/" + source_folder + "/" + name,
    };
    for (const auto& c : candidates)
        if (is_file(c))
            return c;
    return std::string(GPURX_SOURCE_DIR) + "/" + source_folder + "/" + name; // named in the error
}

std::string python()
{
    const char* env = std::getenv("GPURX_PYTHON");
    return env && *env ? env : GPURX_PYTHON_EXECUTABLE;
}

std::string shell_quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int run_command(const std::string& cmd)
{
    std::fflush(stdout);
    std::fflush(stderr);
    const int rc = std::system(cmd.c_str());
    if (rc == -1)
        return 127;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

int plot_csvs(const char* program, const char* argv0, const std::string& title,
              const std::vector<std::string>& csvs, const std::string& png, const std::string& extra_args)
{
    return plot_csvs_with(program, argv0, "plot_ber.py", title, csvs, png, extra_args);
}

int plot_csvs_with(const char* program, const char* argv0, const std::string& script, const std::string& title,
                   const std::vector<std::string>& csvs, const std::string& png, const std::string& extra_args)
{
    std::string cmd = shell_quote(python()) + " " + shell_quote(find_script(argv0, script, "scripts")) +
                      " --title " + shell_quote(title) + extra_args;
    for (const auto& c : csvs)
        cmd += " " + shell_quote(c);
    if (png.empty()) {
        std::fprintf(stderr, "plot: %s -o OUT.png\n", cmd.c_str());
        return 0;
    }
    cmd += " -o " + shell_quote(png);
    const int rc = run_command(cmd);
    if (rc != 0)
        std::fprintf(stderr, "%s: the plot failed (exit %d); the command was:\n  %s\n", program, rc,
                     cmd.c_str());
    else
        std::fprintf(stderr, "plot: %s\n", png.c_str());
    return rc;
}

void print_ber_table(const std::vector<ber_point>& pts, const char* not_bracketed)
{
    std::printf("| Eb/N0 (dB) | BER | BER std. error | FER | frame errors | bit errors | bits |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (const auto& p : pts)
        std::printf("| %.2f | %.3e | %.1e | %.3e | %llu | %llu | %llu |\n", p.ebn0, p.ber(), p.ber_stderr(),
                    p.fer(), (unsigned long long)p.frame_errors, (unsigned long long)p.bit_errors,
                    (unsigned long long)p.bits);
    for (double target : { 1e-3, 1e-5 }) {
        const auto c = find_crossing(pts, target);
        if (!c.found()) {
            std::printf("\nBER %.0e: %s\n", target, not_bracketed);
            continue;
        }
        std::printf("\nBER %.0e at Eb/N0 %.3f dB: +-%.3f dB (95%%, statistical)", target, c.ebn0,
                    1.96 * c.stat_sigma);
        if (!std::isnan(c.interp_error))
            std::printf(", +-%.3f dB (linear vs quadratic interpolation)", c.interp_error);
        std::printf("\n");
    }
    std::fflush(stdout);
}

bool sweep_stops_after(const ber_point& p, bool keep_going, bool more_points, const std::string& name,
                       const char* what)
{
    if (p.bit_errors != 0 || keep_going || !more_points)
        return false;
    std::fprintf(stderr,
                 "  %s%sEb/N0 %.2f dB: no errors in %llu bits (BER < %.1e at 95%%); the %s stops "
                 "here, points above %.2f dB are not run (--keep-going runs them)\n",
                 name.c_str(), name.empty() ? "" : ": ", p.ebn0, (unsigned long long)p.bits, 3.0 / double(p.bits),
                 what, p.ebn0);
    return true;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
