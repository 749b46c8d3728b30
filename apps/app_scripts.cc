/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app_scripts.h"

#include <cstdio>
#include <cstdlib>
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
    return std::string(GPURX_SOURCE_DIR) + "/" + source_folder + "/" + name;
}

std::string script_python()
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

int run_shell(const std::string& cmd)
{
    std::fflush(stdout);
    std::fflush(stderr);
    const int rc = std::system(cmd.c_str());
    if (rc == -1)
        return 127;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

int plot_ber(const char* program, const char* argv0, const std::string& title,
             const std::vector<std::string>& csvs, const std::string& png, const std::string& extra_args)
{
    std::string cmd = shell_quote(script_python()) + " " +
                      shell_quote(find_script(argv0, "plot_ber.py", "scripts")) + " --title " +
                      shell_quote(title) + extra_args;
    for (const auto& c : csvs)
        cmd += " " + shell_quote(c);
    if (png.empty()) {
        std::fprintf(stderr, "plot: %s OUT.png\n", cmd.c_str());
        return 0;
    }
    cmd += " " + shell_quote(png);
    const int rc = run_shell(cmd);
    if (rc != 0)
        std::fprintf(stderr, "%s: the plot failed (exit %d); the command was:\n  %s\n", program, rc,
                     cmd.c_str());
    else
        std::fprintf(stderr, "plot: %s\n", png.c_str());
    return rc;
}

} // namespace apps
} // namespace gpurx
} // namespace gr
