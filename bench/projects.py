"""Whole projects as a new user lints them: `cllint check .` at the repository root, no
configuration, and the reports counted per 1,000 lines of OpenCL source (issue 29).

The projects are GitHub snapshots brought onto the machine by the search tool's `fetch`
(`/work/.mirror/<owner>+<name>/repo`, `CLLINT_MIRRORS` to look elsewhere). Each pinned
commit's whole tree (host code included) is checked out into `bench/.cache/projects/<name>/`
with `git archive`; nothing of it is committed. CI has no fetch: no test needs these.

**Split before looking.** A project is *validate* when it is among the first third of the
list ordered by sha256("projects:<name>"), *tune* otherwise (`split_of`). Work comes from the
tune projects only; the validate ones are scored once at the end. A second held-out set,
*validate2* (`HELD_OUT_2`, added in session 11 after the first third had been scored), is
likewise scored once: its "before" at the session's start, its "after" at the end; and so is
*validate3* (`HELD_OUT_3`, session 12), *validate4* and *validate5* (`HELD_OUT_4`, `HELD_OUT_5`,
session 13), and *validate6* (`HELD_OUT_6`, session 14; scored once, then read, so tune since session 15), and *validate7*
(`HELD_OUT_7`, session 15; scored once, then read, so tune since session 16), and *validate8*
(`HELD_OUT_8`, session 16), and *validate9* (`HELD_OUT_9`, session 16; both scored once, then read,
so tune since session 17), *validate10* (`HELD_OUT_10`, session 17; scored once, then read, so tune
since session 18), *validate11* (`HELD_OUT_11`, session 18; scored once, then read, so tune since
session 19), *validate12* and *validate13* (`HELD_OUT_12`, `HELD_OUT_13`, session 19; scored once,
then read, so tune since session 20), *validate14* (`HELD_OUT_14`, session 20; scored once, then read, so tune since session 21), *validate15*
(`HELD_OUT_15`, session 21; scored once, then read, so tune since session 22), *validate16*
(`HELD_OUT_16`, session 22).

    .venv/bin/python bench/projects.py                   # tune projects, a table
    .venv/bin/python bench/projects.py --split validate  # the held-out third, once
    .venv/bin/python bench/projects.py --split validate2 # the second held-out set, once
    .venv/bin/python bench/projects.py --split validate3 # the third, once
    .venv/bin/python bench/projects.py --split validate4 # the fourth, once
    .venv/bin/python bench/projects.py --split validate5 # the fifth, once
    .venv/bin/python bench/projects.py --split validate16 # the sixteenth, once
    .venv/bin/python bench/projects.py --codes           # also the reports per code
    .venv/bin/python bench/projects.py --show CODE       # every report of CODE (tune only)
    .venv/bin/python bench/projects.py --server          # every file opened in the server too

The command under test is `cllint check --format json --exit-zero --no-cache .` run in the
project's folder (`--cllint` picks another executable, e.g. an older tree's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".cache" / "projects"
MIRRORS = Path(os.environ.get("CLLINT_MIRRORS", "/work/.mirror"))
OPENCL_EXTS = (".cl", ".clh", ".ocl", ".opencl")

# name -> (GitHub repository, pinned commit)
PROJECTS: dict[str, tuple[str, str]] = {
    "arrayfire": ("arrayfire/arrayfire", "492718b5a256d4a9d5198fdce89d8fd21772bfda"),
    "boost-compute": ("boostorg/compute", "cf7907574d6159cd43e6cf687a7b656278c61dd0"),
    "clblas": ("clMathLibraries/clBLAS", "cf9113982fdfc994297d372785ce76eb80911af2"),
    "clblast": ("CNugteren/CLBlast", "eeff251463434753470bccc16f2879437c220808"),
    "clfft": ("clMathLibraries/clFFT", "c59712e136fa6207956af22f5c0e4cee7d05340e"),
    "clpeak": ("krrishnarraj/clpeak", "a68fbf0514f0ada6a88823dba7cb7067569dbbf1"),
    "clrng": ("clMathLibraries/clRNG", "4a16519ddf52ee0a5f0b7e6288b0803b9019c13b"),
    "clsparse": ("clMathLibraries/clSPARSE", "62c93e6f0e05b84caefb1709c6118e0879b9f083"),
    "deepcl": ("hughperkins/DeepCL", "46a7bba5eb9f0012d9d705e20c64848bad01285a"),
    "fluidx3d": ("ProjectPhysX/FluidX3D", "8986874e626e0aebd317ab16c420b39e30dfa273"),
    "ggml": ("ggml-org/ggml", "d99724f2b141fed9e1a9f402213506c081433465"),
    "hashcat": ("hashcat/hashcat", "d3983edaf22f5370d1bb136c930460bcad2d9f6e"),
    "john": ("openwall/john", "3c2e19c0dbe0bb6172780018b1d5a6097250dad1"),
    "miopen": ("ROCm/MIOpen", "2d1fd997a6fcf801ac4ca7a63e0656ef1cb9f488"),
    "pyopencl": ("inducer/pyopencl", "26c8ab983d31ec53f22ca7812194bf35d984cd78"),
    "rodinia": ("yuhc/gpu-rodinia", "9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4"),
    "sgminer": ("sgminer-dev/sgminer", "8bf1c1807cca1ca0ec0f87b452e3d1cb395f0b1b"),
    "viennacl": ("viennacl/viennacl-dev", "dc552a8d4bba2bb028a346dc611deea0c67e3eed"),
    "xmrig": ("xmrig/xmrig", "b2ca72480c58d197e18c885d9fc1a0c8d517e60a"),
}
VALIDATE_SHARE = 3  # one project in three is held out

# Added in session 11 and held out whole, never looked at before their one scoring: the first
# validate third was scored once in session 10, so later work needs projects nobody has seen.
HELD_OUT_2: dict[str, tuple[str, str]] = {
    "cltune": ("CNugteren/CLTune", "8a56a4a314be7ccef56ad8f55e8a34a37dda0545"),
    "compute-samples": ("intel/compute-samples", "d8bd5f392bfe3d835a5f8743ebf333508d8356d4"),
    "ethminer": ("ethereum-mining/ethminer", "8eaf50ab3baad9a1747e04dc295793d46740dcae"),
    "gegl": ("GNOME/gegl", "3d6ed0be1a538da469b0ad86bc37f815f4b807eb"),
    "handson": ("HandsOnOpenCL/Exercises-Solutions", "be2fb26d7c478627598ffba369014a4adb57b6f4"),
    "opencv-contrib": ("opencv/opencv_contrib", "2a5154a4479e841aa1282ef83d139c4870d17b8f"),
    "polybench-acc": ("cavazos-lab/PolyBench-ACC", "70ea4ca9047dc4ec9c3ca79b4c91b3b2cc1510e7"),
    "shoc": ("vetter/shoc", "0aea03beba2f09fcb5935cc11737372fe4de9ec0"),
    "x264": ("mirror/x264", "c24e06c2e184345ceb33eb20a15d1024d9fd3497"),
    "xmr-stak": ("fireice-uk/xmr-stak", "67cf951b15ccac79763706e392b49ebc95957c51"),
}
PROJECTS.update(HELD_OUT_2)

# Added in session 12 (the snapshots' newest commits when fetched) and split by hash before any
# report was read: six held out as *validate3* (scored at the session's start and end only), five
# join the tune projects (`_held_3`).
HELD_OUT_3: dict[str, tuple[str, str]] = {
    "bitcrack": ("brichard19/BitCrack", "6bf8059ef075eb1622298395866b0bd02375e1d9"),
    "bullet3": ("bulletphysics/bullet3", "6c888f4abd7b46f572587360cc214985f02e5c6b"),
    "cldnn": ("intel/clDNN", "2c7ae88a2fce05244b902dd5446e4b0ab98f2793"),
    "luxcore": ("LuxCoreRender/LuxCore", "d624e0445924c766c32fd9a08df56d3264cbd33f"),
    "mace": ("XiaoMi/mace", "0fc55a548ef41b37fd15fd8944de5155eb09b3c1"),
    "mnn": ("alibaba/MNN", "4d40bdbd7efb73a58383bb5da867a6f41eb1776e"),
    "oclgrind": ("jrprice/Oclgrind", "5597a379b4f7d74c4af5532260df0366c277259f"),
    "opencl-sdk": ("KhronosGroup/OpenCL-SDK", "6f25f5d0571eae335f7fb6f494682dc0b7df546f"),
    "openmm": ("openmm/openmm", "1a47c2f68439c579e27666e5f985ea1a46dd105a"),
    "pocl": ("pocl/pocl", "5066640dcbff6df32241da2416c964ea69659999"),
    "tnn": ("Tencent/TNN", "f0cb08129a05c5b60f08e4ef66042a54a883a56a"),
}
PROJECTS.update(HELD_OUT_3)
# Tune projects added in session 12 for kinds the tune set lacked: a built-in library written in
# OpenCL C, a render engine, a verifier's test suite. Outside the hash split, which they would move.
TUNE_ADDED: dict[str, tuple[str, str]] = {
    "baikal": ("GPUOpen-LibrariesAndSDKs/RadeonProRender-Baikal", "2d5a5d0eb2092d75adf637bf6f381d7e9307e986"),
    "gpuverify": ("mc-imperial/gpuverify", "49219770aad01231edd0d8e0fa3ed036006cf32a"),
    "libclc": ("llvm-mirror/libclc", "9aa6f350a6ce0f2cfc7e489495af8899ca74e079"),
    # session 13: a compiler's lit tests and two collections of book and tutorial samples
    "opencl-book": ("bgaster/opencl-book-samples", "3173237ea23ae11462ee3073efeadfa99c2dc5a6"),
    "opencl-examples": ("rsnemmen/OpenCL-examples", "03d007defce3c8e43fe3e8cbec9e97319efb8e83"),
    "spirv-translator": ("KhronosGroup/SPIRV-LLVM-Translator", "cea7c0e5fa6114f2e3ae83a6652bda7a6bccbc2b"),
}
PROJECTS.update(TUNE_ADDED)

# Added in session 13 (the snapshots' newest commits when fetched), split by hash before any
# report was read: half held out as *validate4*, half join the tune projects (`_held_4`).
HELD_OUT_4: dict[str, tuple[str, str]] = {
    "bfgminer": ("luke-jr/bfgminer", "866fd36f3a77d181805b899d5d306bd87b01f704"),
    "cloverleaf": ("UK-MAC/CloverLeaf_OpenCL", "6cb745d2f333ebfd4e146d7f70bb8e2ad60cda9c"),
    "cltorch": ("hughperkins/cltorch", "3b47f53f36e9c752620672213203fec22d86bc20"),
    "fast": ("smistad/FAST", "0c9f2bde97ab3c77c6ea3d9c7ecb281970a17dc9"),
    "gromacs": ("gromacs/gromacs", "b1a82ec1956eb9658d33f3ec6f3adfdbb6b53a7b"),
    "katago": ("lightvector/KataGo", "6a1fc5de9fc253723ac475a0683bf0b9d9b7bd19"),
    "leela-zero": ("leela-zero/leela-zero", "3ee6d20d0b36ae26120331c610926359cc5837de"),
    "onednn": ("oneapi-src/oneDNN", "515bfba68c0254e23c876d4c1a7cc26c2d4b690b"),
    "opencl-caffe": ("amd/OpenCL-caffe", "638543108517265366c18ae5821f3096cf5cf34a"),
    "paddle-lite": ("PaddlePaddle/Paddle-Lite", "3d329c954c82d3e189e2d3ab35a5558d35e7202a"),
}
PROJECTS.update(HELD_OUT_4)
# A second batch fetched in session 13, split the same way (`_held_5`) before any report was read.
HELD_OUT_5: dict[str, tuple[str, str]] = {
    "clspv": ("google/clspv", "88d8ff71000bf995493c8daaed865ec1ac216309"),
    "compute-runtime": ("intel/compute-runtime", "e37c60bf2ad415d6f60af8b89b849a30a67d8ac1"),
    "darknet-cl": ("sowson/darknet", "d287ee438758977c2f6f27a6418d3428626e7edd"),
    "mygemm": ("CNugteren/myGEMM", "e2a364537f2b8725b3f5ba5f81008d04558a2327"),
    "nvidia-examples": ("sschaetz/nvidia-opencl-examples", "4e919bdee11cbc134698c59c4fbec93665745246"),
    "tengine": ("OAID/Tengine", "c73708ceb4322ae7c438e4d468178b737fa44cd0"),
}
PROJECTS.update(HELD_OUT_5)

# A third batch fetched in session 14 (SDK samples, an image-kernel library, miners, a
# fractal renderer, docking), split by hash (sha256 "projects6:<name>", first half held out) before any report was read.
HELD_OUT_6: dict[str, tuple[str, str]] = {
    "amd-app-sdk": ("clockfort/amd-app-sdk-fixes", "fde0a40d065e7a185217013591807bd5a98ef1ca"),
    "autodock-gpu": ("ccsb-scripps/AutoDock-GPU", "f5cf6ffdd0c5b3f113d5cc424fabee51df04da7e"),
    "bolt": ("HSA-Libraries/Bolt", "c53998c8d79d6129a80c8806bf56d058e93397e0"),
    "clij": ("clij/clij-opencl-kernels", "9c11d9e8678d34e58418284b6ea8ec32337133f0"),
    "clnn": ("hughperkins/clnn", "d1701e63c73eadbef55e2b74358eab56dae4ff91"),
    "gpuowl": ("preda/gpuowl", "6c16f7ee0cdcdbd9f9539e225269fbf9f1a86fe0"),
    "jocl-samples": ("gpu/JOCLSamples", "31114e3efd3a67e8d94f6ccdb676af192ab18c28"),
    "mandelbulber2": ("buddhi1980/mandelbulber2", "8a93d091cf1f45c7f8c0cd5f59b48a3f24fa6561"),
    "nheqminer": ("nicehash/nheqminer", "b9900ff8e3c6f8e5a46af18db454f2a2082d9f46"),
    "profanity": ("johguse/profanity", "186b9b27ab3e24a1899f648adcabcbf0e5f3131e"),
    "simple-opencl-samples": ("bashbaug/SimpleOpenCLSamples", "fa366faf004583c1dbd7b6fa09a49848b6c3ce82"),
    "ufo-filters": ("ufo-kit/ufo-filters", "969ef1bff9ae9b9b62f32ac9126c33d4324d8e73"),
    "vanitygen": ("samr7/vanitygen", "cd1a7282431dcf7e522777976aa18728ee5bb7be"),
    "waifu2x": ("DeadSix27/waifu2x-converter-cpp", "57520b25864e648c133ea0b2f4e7e07410ddc1f4"),
}
PROJECTS.update(HELD_OUT_6)


# A fourth batch fetched in session 15 (Python hosts of X-ray and microscopy libraries, miners,
# a Mersenne-factoring program, a parallel-kernels suite, a C++ wrapper's tests, a profiler's
# samples), split by `_held_7` before any report was read: half held out as *validate7*.
HELD_OUT_7: dict[str, tuple[str, str]] = {
    "bitcracker": ("e-ago/bitcracker", "4257899212421bbdf4899f8c1b154edebde872f8"),
    "diablominer": ("Diablo-D3/DiabloMiner", "822e17e60d43b6b07d00fdd32b679aca0b9c41ce"),
    "easycl": ("hughperkins/EasyCL", "fc44c48533cbf837851d11012d85e947fc3481df"),
    "gputools": ("maweigert/gputools", "7addc6cfa6000d190f7c651e8f1fc2ee3e98a0b7"),
    "mfakto": ("primesearch/mfakto", "5e7a2ab32f41aa7e91357292cb36561c96ec5b30"),
    "nnedi3cl": ("HomeOfVapourSynthEvolution/VapourSynth-NNEDI3CL", "eb2a810c0b7dfdd3ad908a1bdc07d6daab64eb57"),
    "parres-kernels": ("ParRes/Kernels", "04248b66a03d7f5edba8d54c9ae7834dd718027a"),
    "phoenix-miner": ("jedi95/Phoenix-Miner", "ec8af03cfdf7b0dbf46e2d8561adba66c60ca437"),
    "poclbm": ("m0mchil/poclbm", "2ae15b77df1d17d2ec2748673ba2e8e0a01891c5"),
    "pti-gpu": ("intel/pti-gpu", "fcd0ca813a6ce08ea5034ba76fb3da23b9d4baac"),
    "pyclesperanto": ("clEsperanto/pyclesperanto_prototype", "85cf8581963fb168e301fc50640c61a8e9eb2a77"),
    "silentarmy": ("mbevand/silentarmy", "c6a9ca85a81708589c904d2cbf3c665cd7ce5fa0"),
    "silx": ("silx-kit/silx", "99b993be0a9d846d3a30b7eb2e9569237319e98f"),
}
PROJECTS.update(HELD_OUT_7)

# A batch fetched in session 16 (a driver's built-in library and unit tests, video filters, deep
# learning primitives, a GEMM generator, miners, a HIP-on-OpenCL runtime, a volunteer-computing
# client), split by `_held_8` (sha256 "projects8:<name>", first half held out) before any report
# was read. Repositories fetched with no OpenCL source file (kernels only generated or in
# templates) were left out: the measure is per line of OpenCL source.
HELD_OUT_8: dict[str, tuple[str, str]] = {
    "beignet": ("intel/beignet", "f72309a523471cd07778a9d9ed5442bd634d2e82"),
    "chipstar": ("CHIP-SPV/chipStar", "edd7ad21246965632cf66717fe2e4e9163bbe643"),
    "clpy": ("fixstars/clpy", "8f598b4c1486c3e238d0bb7e348506d3d7385d8c"),
    "dlprimitives": ("artyom-beilis/dlprimitives", "b176c155d5e8f0fe4ccff9521ed5e50de52879b5"),
    "kaspa-miner": ("tmrlvi/kaspa-miner", "bf361d02a46c580f55f46b5dfa773477634a5753"),
    "milkyway": ("Milkyway-at-home/milkywayathome_client", "7ddbdd25deab0f8f8234d53a6dbf6c65969bd8ea"),
    "miopengemm": ("ROCm/MIOpenGEMM", "c974d961355920cc5f1a87fcf55afcbf3905fe38"),
    "nano-work-server": ("nanocurrency/nano-work-server", "67daf639669f95b8a36153599b02f98b5053a2c3"),
    "opensubdiv": ("PixarAnimationStudios/OpenSubdiv", "7d0ab5530feef693ac0a920585b5c663b80773b3"),
    "pyrit": ("JPaulMora/Pyrit", "b0a0dce7a000e51ef2f76684d3de2a41cd93d848"),
    "vceenc": ("rigaya/VCEEnc", "276c1ca341d0abd13e421d4b8067955d8111c7da"),
}
PROJECTS.update(HELD_OUT_8)

# A second batch fetched in session 16 (a mining hash, image registration, docking, an SDR
# display, two benchmark suites, an imaging toolkit's GPU filters, a mini-app), split the same
# way by `_held_9` (sha256 "projects9:<name>") before any report was read.
HELD_OUT_9: dict[str, tuple[str, str]] = {
    "chai": ("chai-benchmarks/chai", "1ad38e3607a59905c5edc4f6ae11f676a769f3d9"),
    "gr-fosphor": ("osmocom/gr-fosphor", "74d54fc0b3ec9aeb7033686526c5e766f36eaf24"),
    "itk": ("InsightSoftwareConsortium/ITK", "fee22c1e22464dea46b49d19b89b9966fa94dc2c"),
    "niftyreg": ("KCL-BMEIS/niftyreg", "d518b8ac9b1d4572de95daf5a31d34c2f75a590a"),
    "opendwarfs": ("vtsynergy/OpenDwarfs", "fdec39374f7e08d45aa8b4cc18e212f6f1c1c710"),
    "randomx-opencl": ("SChernykh/RandomX_OpenCL", "34d1a72d2182e436bc28e01f300cfe71ece03256"),
    "tealeaf": ("UK-MAC/TeaLeaf_OpenCL", "73f6d30dee7385e33470a2d2f76e60f5d073377c"),
    "vina-gpu": ("DeltaGroupNJUPT/Vina-GPU", "6cc92a9bfa314ea89bd47fd5f8406eb24a3faf0a"),
}
PROJECTS.update(HELD_OUT_9)

# A batch fetched in session 17 (photon-transport simulators, a GPU compiler's built-in library,
# FPGA benchmark suites, a neural-network library, miners and wallet-recovery tools, a radio
# telescope simulator), split by `_held_10` (sha256 "projects10:<name>", first half held out)
# before any report was read. Fetched but left out for having no OpenCL source file (kernels only
# in host strings): BabelStream, VapourSynth-TCanny, opencl3, ethash, CSR5, naibaf7/caffe.
HELD_OUT_10: dict[str, tuple[str, str]] = {
    "bip39-solver": ("johncantrell97/bip39-solver-gpu", "c820aff3e16e80839ce24c53734a8b02daadd138"),
    "btcrecover": ("3rdIteration/btcrecover", "1457088acf17630eb12a5b53989982ac34e55f2a"),
    "hpcc-fpga": ("pc2/HPCC_FPGA", "c7a0663ad43932255f8b71c6674a79bb068e94dc"),
    "igc": ("intel/intel-graphics-compiler", "98fff71643f1d26ba6cc25811e46c780bb022158"),
    "kawpowminer": ("RavenCommunity/kawpowminer", "632f6ea0a5cd09e2c6443374dbe6db0a767715ba"),
    "mcxcl": ("fangq/mcxcl", "fcdd6fdbded805b8374cb26ddf8fc9f53177173d"),
    "mmc": ("fangq/mmc", "4cefc497f27fb9aadd9c33fb7bbcbae39b6d69f8"),
    "oskar": ("OxfordSKA/OSKAR", "007bc17af0744c7452edb54d845594a4c2bd0c11"),
    "spector": ("KastnerRG/spector", "a24a9cc1e25128430adbea0481b5d223e5cf649c"),
    "tiny-dnn": ("tiny-dnn/tiny-dnn", "c0f576f5cb7b35893f62127cb7aec18f77a3bcc5"),
    "xmrig-amd": ("xmrig/xmrig-amd", "529a29110881da598d66e9e0bb5f1002bc796e5c"),
}
PROJECTS.update(HELD_OUT_10)

# A batch fetched in session 18 (an OpenVX implementation's OpenCL target, a GPU vendor's device
# library, a password cracker, memory-hard hash and miner kernels, a transport mini-app, a
# counter-based RNG library, a functional language's runtime), split by `_held_11` (sha256
# "projects11:<name>", first half held out) before any report was read. Fetched but left out for
# having no OpenCL source file: miniBUDE, MIVisionX, CLSmith, RTK; too big: mesa; unavailable:
# seti_boinc. ROCm-Device-Libs is pinned at its last development branch (its default branch now
# only points to the LLVM monorepo).
HELD_OUT_11: dict[str, tuple[str, str]] = {
    "openvx-sample": ("KhronosGroup/OpenVX-sample-impl", "9caba36a541fa6480f9d65d9a78dde208ebe96f9"),
    "rocm-device-libs": ("ROCm/ROCm-Device-Libs", "677c6bda85223a9ca20578156087e387c0cbd37f"),
    "argon2-gpu": ("WOnder93/argon2-gpu", "096b6e0fa584da6150e83c0069c8b7a08af9d724"),
    "snap-opencl": ("UoB-HPC/SNAP_MPI_OpenCL", "7a5255891f43fa2506e8c87a225e46ce0213fef2"),
    "random123": ("DEShawResearch/random123", "9545ff6413f258be2f04c1d319d99aaef7521150"),
    "hashkill": ("gat3way/hashkill", "50ba2b5971e1b7228df9d1c9e1e775881b18f96c"),
    "gominer": ("decred/gominer", "a773d6983a46911633ec7903d3d63fca300ce023"),
    "scallion": ("lachesis/scallion", "8d44924635cdcddaa8501179d4f8f3c35484c1fd"),
    "sia-gpu-miner": ("NebulousLabs/Sia-GPU-Miner", "fd36a840e33b7053e3e7dfc23ecc73bb2fe9c1ae"),
    "ccurl": ("iotaledger/ccurl", "94d74a492a7ff9494c73b7be2dcf80f3ce4d453f"),
    "hs-miner": ("handshake-org/hs-miner", "91838a9e4abb70b4ebb668804f375789e0a31234"),
    "futhark": ("diku-dk/futhark", "48a0c814248b0a2f340234aab979cb57dfdd7b19"),
}
PROJECTS.update(HELD_OUT_11)

# A batch fetched in session 19 (heterogeneous-computing and graph benchmark suites, a seismic
# modelling code, an R package's GPU kernels, a cuckoo-cycle miner, an image registration
# toolkit, a prime-search program, a task runtime's examples, a vendor's driver micro-benchmarks,
# a Vulkan-based OpenCL implementation's tests, a camera-pipeline library, an image-processing
# primitives library), split by sha256 "projects12:<name>" (first half held out)
# before any report was read. Fetched but left out: RadeonRays_SDK, Vitis_Accel_Examples,
# rodinia_fpga, KNLMeansCL, cl2qcd, VapourSynth-EEDI3, OpenCL-CTS (no OpenCL source file at
# their newest commit); VC4C (its 1,206 `.cl` files are copies of projects already listed:
# hashcat, John the Ripper, MIOpen...); ComputeLibrary, dbcsr, pyFAI (too big to fetch).
HELD_OUT_12: dict[str, tuple[str, str]] = {
    "hetero-mark": ("NUCAR-DEV/Hetero-Mark", "b8ea324d2394401776487b3520338d03f8c27676"),
    "seiscl": ("gfabieno/SeisCL", "f910d030abca63514f57fe3be3e6c69a44bac578"),
    "gpur": ("cdeterman/gpuR", "6799d7fa4716cfa7f8e29a9944be819437e6e434"),
    "gringoldminer": ("mozkomor/GrinGoldMiner", "d850e0c83ba36070ed3414f9dd3b13aca47c5d68"),
    "elastix": ("SuperElastix/elastix", "0c0b19f4a7f9c5d926c0ab43bbc552a10075d399"),
    "genefer22": ("galloty/genefer22", "b0fe145129d7b0d52eef6a9a9a839bcd20c8df9e"),
    "pannotia": ("pannotia/pannotia", "16c1f0964516babc13a60f21c74644e28f3651b1"),
    "starpu": ("starpu-runtime/starpu", "3f3cc82a6fe5fd0b919f8c6954ac8254b1fb3190"),
    "compute-benchmarks": ("intel/compute-benchmarks", "7de6578b304e109a4077103896669fa5e57387d4"),
    "mixbench": ("ekondis/mixbench", "236a0be007a5937e9ffb4a6c7eb1fafed6108e80"),
    "clvk": ("kpet/clvk", "45ea290a4b5ad023029ffa2a06d2069a0ed2ab94"),
    "libxcam": ("intel/libxcam", "eacfb5aa8373f50848d82d59bd8f81c51bf23f7b"),
    "openclipp": ("CRVI/OpenCLIPP", "1e67a418df30e985e10c6f3c70e67a5814556014"),
}
PROJECTS.update(HELD_OUT_12)

# A second batch fetched in session 19 (a kernel tuner's examples, a radio framework's OpenCL
# blocks, a miner, a GPU proof library, a GPU simulator's samples, an FPGA vendor's examples, a
# Java-to-GPU compiler's tests), split by sha256 "projects13:<name>" (first half held
# out) before any report was read. Fetched but left out: HandBrake (no OpenCL source file).
HELD_OUT_13: dict[str, tuple[str, str]] = {
    "kernel-tuner": ("KernelTuner/kernel_tuner", "96a6abc1019179397753c4afede9149a80aec369"),
    "gr-clenabled": ("ghostop14/gr-clenabled", "fbfa98ddbaa483c01d6e0abe3594c50206f38d4e"),
    "beam-opencl-miner": ("BeamMW/opencl-miner", "a2d6b3baefc6a152ed546ea1e2c8fff2cd244955"),
    "ec-gpu": ("filecoin-project/ec-gpu", "16d38ef6715fb1a4968986d3a5635f8bcac6c984"),
    "multi2sim": ("Multi2Sim/multi2sim", "77b16e0ba3c23c5609657834b8cdfc7d0e22c303"),
    "sdaccel-examples": ("Xilinx/SDAccel_Examples", "f58f1616d92db70b7182eab7884d15c7e675b37a"),
    "tornadovm": ("beehive-lab/TornadoVM", "06616ddd4a543b07f785982bfcf4ffea7f6bc9c6"),
}
PROJECTS.update(HELD_OUT_13)

# A batch fetched in session 20 (a chess engine's network backend, two Monte Carlo transport
# proxy apps, a Node.js binding's examples, a Rust binding's examples, a driver-debugging
# layer's kernels, a memory micro-benchmark suite, a media framework's samples), split by
# `_held_14` (sha256 "projects14:<name>", first half held out) before any report was read.
# Fetched but left out: ImageMagick, nengo-ocl, BabelStream, OpenCL-CLHPP, OpenCL-Benchmark,
# libgpuarray, OpenCLOn12 (no OpenCL source file); opencl-clang (its 35,420 `.cl` files are
# conformance-test dumps); FFmpeg, darktable, Samsung ONE, OpenVINO (too big to fetch);
# fractorium (unavailable).
HELD_OUT_14: dict[str, tuple[str, str]] = {
    "lc0": ("LeelaChessZero/lc0", "909a40826db9e8b221d9209a487daba6ab57e3b7"),
    "xsbench": ("ANL-CESAR/XSBench", "ba08e5221af6106252b866e50ea123c69d31a4e2"),
    "rsbench": ("ANL-CESAR/RSBench", "34b644787ea9af4fb188e1253da72e09bbed9989"),
    "node-opencl": ("mikeseven/node-opencl", "c059fee1fea1fb417c7e5b30fac78001826efb5e"),
    "ocl-rs": ("cogciprocate/ocl", "36ce30364bc7daa6fd1832ca04b91ce8bc8f79cd"),
    "opencl-intercept-layer": ("intel/opencl-intercept-layer", "1013936ee6f107b241f113a4421d9fdb00f0af62"),
    "gpumembench": ("ekondis/gpumembench", "838a4fcd5e6bdf8d09a10da10fb4b98bf484771a"),
    "amf": ("GPUOpen-LibrariesAndSDKs/AMF", "eadd00804d5f7e5cd8c85d540073198312870776"),
}
PROJECTS.update(HELD_OUT_14)

# A batch fetched in session 21 (a depth camera driver, a gradient-boosting library, a deep
# learning framework and an inference engine, Java and Clojure bindings with their kernels, a
# benchmark suite, a GPU memory tester, two vanity-address and sieve tools, a skeleton library,
# a profiler's samples, a volunteer-computing sample, an upscaler, an FPGA runtime's tests),
# split by `_held_15` (sha256 "projects15:<name>", first half held out) before any report was
# read. Fetched but left out: QSVEnc (80 of its 82 kernels are VCEEnc's, a tune project), sai
# (leela-zero's kernels); vexcl, boxtree, cuckoo, HeCBench, lwjgl3-demos, OpenCL-Guide, clr,
# CoMD, sailfish, Kore, cldrive, radeon_gpu_analyzer, OpenCL-Wrapper, stdgpu, freeocl, TCanny,
# ethash, SiftGPU, NexusMiner, harlan, N2D2, neutral, ROCm-OpenCL-Runtime, pynufft, reikna (no
# OpenCL source file); jmonkeyengine, opencv, Native_SDK, Kratos, Vitis-Tutorials (too big to
# fetch); KTT, Parboil's other mirrors, adreno samples, pencil (unavailable).
HELD_OUT_15: dict[str, tuple[str, str]] = {
    "libfreenect2": ("OpenKinect/libfreenect2", "fd64c5d9b214df6f6a55b4419357e51083f15d93"),
    "lightgbm": ("microsoft/LightGBM", "bae0b7ba953341a32b2a9c5c5c437a1b976f576f"),
    "singa": ("apache/singa", "4ddb56293e88c64ba577388c81400a0574339556"),
    "huawei-bolt": ("huawei-noah/bolt", "b9a09d21301fdb4874ada4aa83e8fa6db8a6c851"),
    "javacl": ("nativelibs4java/JavaCL", "2a07936f475052ab97f06d638f4af33a8dfa4b62"),
    "parboil": ("abduld/Parboil", "a4c63da28f45699e9a274cbc49af3e067162aa2b"),
    "memtestcl": ("ihaque/memtestCL", "932d8a29137b811c4e8a0d701e90b781fbdabf00"),
    "eradicate2": ("johguse/ERADICATE2", "41b8c8e4517ebc6801f38efc2d113cd57f42f6e9"),
    "skelcl": ("skelcl/skelcl", "5a7dbcca92ef42f77969720f2146196f38400a49"),
    "codexl": ("GPUOpen-Tools/CodeXL", "34fffe5a0342205e6d602c067da79202f4f8694e"),
    "gfsieve": ("galloty/gfsieve", "b3f073970d6cc04589bb4f2ff5e14f824e0ae6ab"),
    "boinc": ("BOINC/boinc", "c5c6cb79b9aa4747d80d066e3627c22f2c124144"),
    "anime4kcpp": ("TianZerL/Anime4KCPP", "fe187e020c8e57c6885511344a8705c292a92612"),
    "neanderthal": ("uncomplicate/neanderthal", "613af48834f1e1f0074aa3a3ca8c92bdd3655aef"),
    "bayadera": ("uncomplicate/bayadera", "4105fd0e02bbe1cb19b9413f454075d61def6945"),
    "clojurecl": ("uncomplicate/clojurecl", "31c5c8c5835af20314ca0b8d6b05d57a0fd5d72a"),
    "fpga-runtime": ("intel/fpga-runtime-for-opencl", "32a36fe51d3bab2c7caff98e744e7ee3dd55da7d"),
}
PROJECTS.update(HELD_OUT_15)


# A batch fetched in session 22 (an FPGA BLAS-like library for Intel GPUs, a neural network
# compiler's OpenCL backend, a worm's body simulation, an adaptive-mesh hydro code, an X-ray
# ray tracer, a tomography framework's core, four miners and plotters, a proof-of-work
# messenger, a CUDA-to-OpenCL compiler's tests, two FPGA tutorials, a getting-started sample),
# split by `_held_16` (sha256 "projects16:<name>", first half held out) before any report was
# read. Fetched but left out: KNLMeansCL, VapourSynth-EEDI3, CL2QCD, slambench, lift, nq-miner,
# RTK, openmmexampleplugin, openmm-plumed, bellperson, OpenCL-CTS, miniBUDE,
# gpu_performance_api, gnss-sdr, gpu-post, pytorch_dlprim, cgminer, WhileyOpenCL,
# FPGA-Devcloud (no OpenCL source file); ComputeLibrary, pyFAI, dbcsr (too big to fetch);
# AMD_APP_samples (unavailable).
HELD_OUT_16: dict[str, tuple[str, str]] = {
    "sibernetic": ("openworm/sibernetic", "8d2df73b689c72db5b87cd7909700a99c29f0701"),
    "clamr": ("lanl/CLAMR", "449f29cfe4742420c5a907efd5d6410718bf2acc"),
    "verthashminer": ("CryptoGraphics/VerthashMiner", "2f6e618492211045a78ecb44df3e106ffa06858a"),
    "clgpu": ("intel/clGPU", "80907db4513482c29e190bbc20399d638b112fe8"),
    "glow": ("pytorch/glow", "05dd99b971dc5eeeb2b86a80c74dca800653d548"),
    "pybitmessage": ("Bitmessage/PyBitmessage", "1ee388389854d665c6987207ccc5ca6559d4e6e9"),
    "xrt": ("kklmn/xrt", "6a48e39c3b168671187da7d1cc36416e5d720c2f"),
    "ufo-core": ("ufo-kit/ufo-core", "4ae5009026017d3f0c9b050593bc1cf6e81b87d1"),
    "glytex": ("tari-project/glytex", "a2b0de2de4cbee614fe3cdffc1220361342acc35"),
    "scavenger": ("PoC-Consortium/scavenger", "b38f6552c31d589a0433cb8ef52a44c87ce18725"),
    "engraver": ("PoC-Consortium/engraver", "c9c37d964e336f2a716faad32359bb000b9b444c"),
    "coriander": ("hughperkins/coriander", "5f2ca1e56214e96acabe5f7841ad5a4cac941765"),
    "opencl-getting-started": ("smistad/OpenCL-Getting-Started", "1dba0ef7acb3bb3247612e53d1b9d649c22c94c8"),
    "squeezenet-fpga": ("Er1cZ/Deploying_CNN_on_FPGA_using_OpenCL", "05f176f6830dded3c08d8b3ee3f8e2182f68bb71"),
    "hls-tutorial": ("spcl/hls_tutorial_examples", "1605c4af160ee33700cb9164da9f892bfd9ced20"),
    "autolykos2": ("mhssamadani/Autolykos2_AMD_Miner", "73f86a4cc16da3b4c64c74e059e45dcbd2a801cc"),
}
assert not set(HELD_OUT_16) & set(PROJECTS), "a HELD_OUT_16 name would replace a project"
PROJECTS.update(HELD_OUT_16)


# Tune projects fetched in session 21 for false-alarm classes nobody had looked at (an FPGA CNN,
# an SPH solver, a quantum simulator, a chess engine, marching cubes, a primecoin miner, an SoC
# board's FPGA samples, an inference engine's AMD kernels, a Java binding's test, a path-tracing
# tutorial): tune from the start, outside the hash split, like TUNE_ADDED. Fetched but left out:
# OPS, advanced-hpc-lbm (no OpenCL source file); vortex (too big to fetch); wolf-xmr-miner,
# rust-gpu-tools (unavailable); hipcl (chipStar's predecessor, its `.cl` files ROCm-Device-Libs'
# OCML copies).
TUNE_16: dict[str, tuple[str, str]] = {
    "pipecnn": ("doonny/PipeCNN", "392692b86747096e4324098deb38d8e93159809e"),
    "aquagpusph": ("sanguinariojoe/aquagpusph", "8f61634796cb129ef5f976fa7b1d248cb3c87bee"),
    "qrack": ("unitaryfund/qrack", "6a1d6adb3f2bb928c2785b4cc19bb0923ca548d7"),
    "zeta-chess": ("smatovic/Zeta", "b7830f4c0ea00888b2d7c01d6f671387abe435f9"),
    "gpu-marching-cubes": ("smistad/GPU-Marching-Cubes", "a7c075801e8aa73487cb300e9968e5fc7f6c79a1"),
    "xpmclient": ("madMAx43v3r/xpmclient", "2bcd293c45f076d3020a1ae67da9824a5af49956"),
    "c5soc-opencl": ("thinkoco/c5soc_opencl", "4b1ca28e40fbc3ef8e81f26b3a1b07fc4f375229"),
    "anakin": ("PaddlePaddle/Anakin", "5fd68a6cc4c4620cd1a30794c1bf06eebd3f4730"),
    "aparapi": ("Syncleus/aparapi", "8a40dd3b7c12cd9f7cffbc930c2d1fa2f20092c3"),
    "pathtracing-tutorial": ("straaljager/OpenCL-path-tracing-tutorial-3-Part-1",
                             "64cc7738eccb679f290b7c99ec1019dca8548b67"),
}
assert not set(TUNE_16) & set(PROJECTS), "a TUNE_16 name would replace a project"
PROJECTS.update(TUNE_16)


# Tune projects fetched in session 22, found through the search tool's code corpus (course and
# book samples, a test suite of an OpenCL implementation, a MATLAB binding, a protein design
# package's Java host, a C framework's examples, a GPU tester): tune from the start, outside the
# hash split, like TUNE_16. Read freely.
TUNE_17: dict[str, tuple[str, str]] = {
    "au-opencl": ("kravtsun/au-opencl", "382ee7ef8b3376ae46ce21867569be097d7f6435"),
    "kishkaru-opencl": ("kishkaru/OpenCL-projects", "64eeb86b6369602de67f6c010fe1ad4270233275"),
    "variocl": ("JiadingGai/VariOCL", "821fdb850e90ed19bddebb09a3658abed34a7c06"),
    "cltester": ("DeanoC/CLTester", "571b1fbdf487ce72c883212d6d338b3a20031d47"),
    "matcl": ("IANW-Projects/MatCL", "e641d93921b3f633cf6cb79cc75c376778cbe652"),
    "osprey3": ("donaldlab/OSPREY3", "b4dad89377f0221121814d6fc73312882f79fd5f"),
    "ocl-samples": ("cqcallaw/ocl-samples", "989a5c7df2cbbfb707e3e56f4c940e68c15b3ac8"),
    "perhaad-openclbook": ("perhaad/openclbook", "5fc44a8683f932c67d7228b022519d7326651851"),
    "cf4ocl": ("nunofachada/cf4ocl", "e7f1fd611bfd3ac83bdf69f54a1b51a8716aa1e1"),
    "comparch-final": ("hdavidzhu-cabinet/comparch_final", "f6d05a1687382726526cf18a21ba46e80512baad"),
}
assert not set(TUNE_17) & set(PROJECTS), "a TUNE_17 name would replace a project"
PROJECTS.update(TUNE_17)


def _rank(name: str) -> str:
    return hashlib.sha256(f"projects:{name}".encode()).hexdigest()


def _held_3(name: str) -> bool:
    ordered = sorted(HELD_OUT_3, key=lambda n: hashlib.sha256(f"projects3:{n}".encode()).hexdigest())
    return name in ordered[: (len(ordered) + 1) // 2]


def _held_4(name: str) -> bool:
    ordered = sorted(HELD_OUT_4, key=lambda n: hashlib.sha256(f"projects4:{n}".encode()).hexdigest())
    return name in ordered[: len(ordered) // 2]


def _held_5(name: str) -> bool:
    ordered = sorted(HELD_OUT_5, key=lambda n: hashlib.sha256(f"projects5:{n}".encode()).hexdigest())
    return name in ordered[: len(ordered) // 2]


def _held_15(name: str) -> bool:
    ordered = sorted(HELD_OUT_15, key=lambda n: hashlib.sha256(f"projects15:{n}".encode()).hexdigest())
    return name in ordered[: len(ordered) // 2]


def _held_16(name: str) -> bool:
    ordered = sorted(HELD_OUT_16, key=lambda n: hashlib.sha256(f"projects16:{n}".encode()).hexdigest())
    return name in ordered[: len(ordered) // 2]


def split_of(name: str) -> str:
    if name in HELD_OUT_2:
        return "validate2"
    if name in HELD_OUT_3:
        return "validate3" if _held_3(name) else "tune"
    if name in HELD_OUT_4:
        return "validate4" if _held_4(name) else "tune"
    if name in HELD_OUT_5:
        return "validate5" if _held_5(name) else "tune"
    if name in HELD_OUT_6:  # validate6 was scored in session 14 and has been read since: tune now
        return "tune"
    if name in HELD_OUT_7:  # validate7 was scored in session 15 and has been read since: tune now
        return "tune"
    if name in HELD_OUT_8 or name in HELD_OUT_9:  # scored in session 16 and read since: tune now
        return "tune"
    if name in HELD_OUT_10:  # validate10 was scored in session 17 and has been read since: tune now
        return "tune"
    if name in HELD_OUT_11:  # validate11 was scored in session 18 and has been read since: tune now
        return "tune"
    if name in HELD_OUT_12 or name in HELD_OUT_13:  # scored in session 19 and read since: tune now
        return "tune"
    if name in HELD_OUT_14:  # validate14 was scored in session 20 and has been read since: tune now
        return "tune"
    if name in HELD_OUT_15:  # validate15 was scored in session 21 and has been read since: tune now
        return "tune"
    if name in HELD_OUT_16:
        return "validate16" if _held_16(name) else "tune"
    if name in TUNE_ADDED or name in TUNE_16 or name in TUNE_17:
        return "tune"
    ordered = sorted((n for n in PROJECTS
                      if n not in HELD_OUT_2 and n not in HELD_OUT_3 and n not in HELD_OUT_4 and n not in HELD_OUT_5
                      and n not in HELD_OUT_6 and n not in HELD_OUT_7 and n not in HELD_OUT_8
                      and n not in HELD_OUT_9 and n not in HELD_OUT_10 and n not in HELD_OUT_11
                      and n not in HELD_OUT_12 and n not in HELD_OUT_13 and n not in HELD_OUT_14
                      and n not in HELD_OUT_15 and n not in HELD_OUT_16
                      and n not in TUNE_ADDED and n not in TUNE_16 and n not in TUNE_17),
                     key=_rank)
    held = ordered[: len(ordered) // VALIDATE_SHARE]
    return "validate" if name in held else "tune"


def _git_dir(repo: str) -> Path | None:
    base = MIRRORS / repo.replace("/", "+") / "repo"
    for candidate in (base, base / ".git"):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def checkout(name: str) -> Path | None:
    """The project's tree at its pinned commit (extracted once), or None without a snapshot."""
    repo, commit = PROJECTS[name]
    dest = CACHE / name
    stamp = dest / ".cllint-bench-commit"
    if stamp.is_file() and stamp.read_text().strip() == commit:
        return dest
    git = _git_dir(repo)
    if git is None:
        return None
    # Blob by blob: a snapshot may lack its largest files (`fetch` leaves them out), which
    # `git archive` refuses; a missing blob is skipped.
    listing = subprocess.run(["git", "--git-dir", str(git), "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=False)
    if listing.returncode != 0:
        print(f"{name}: git ls-tree failed: {listing.stderr.decode(errors='replace').strip()}", file=sys.stderr)
        return None
    entries = []
    for item in listing.stdout.split(b"\0"):
        if not item:
            continue
        meta, _, path = item.partition(b"\t")
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode != b"120000":
            entries.append((sha.decode(), path.decode(errors="replace")))
    if dest.exists():
        subprocess.run(["rm", "-rf", str(dest)], check=True)
    dest.mkdir(parents=True)
    batch = subprocess.Popen(["git", "--git-dir", str(git), "cat-file", "--batch"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert batch.stdin and batch.stdout
    for sha, path in entries:
        batch.stdin.write(sha.encode() + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if len(header) < 3:  # "<sha> missing"
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        out = dest / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    batch.stdin.close()
    batch.wait()
    stamp.write_text(commit + "\n")
    return dest


def opencl_lines(root: Path) -> int:
    """Lines of OpenCL source files (the denominator; kernels inside host strings excluded)."""
    total = 0
    for p in root.rglob("*"):
        if p.suffix in OPENCL_EXTS and p.is_file():
            try:
                total += p.read_bytes().count(b"\n")
            except OSError:
                pass
    return total


def run_check(root: Path, cllint: str) -> tuple[list[dict], float, str]:
    start = time.perf_counter()
    proc = subprocess.run([cllint, "check", "--format", "json", "--exit-zero", "--no-cache", "."],
                          cwd=root, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    try:
        reports = json.loads(proc.stdout)
    except json.JSONDecodeError:
        reports = None
    # With --exit-zero any other status is a crash: a crash must never read as a silent project.
    if proc.returncode != 0 or reports is None:
        return reports or [], elapsed, proc.stderr or f"exit status {proc.returncode}, no JSON"
    return reports, elapsed, ""


def run_server(root: Path, cllint: str, limit: int, batch: int = 40, quiet_s: float = 3.0,
               read_s: float = 120.0) -> tuple[list[dict], int]:
    """Every OpenCL file of the project opened in `cllint server` (the clang layer on, as the
    editor runs it), `batch` at a time; a file's diagnostics are the last it was sent once the
    server has said nothing for `quiet_s`. At most `limit` files, evenly spread (the count
    opened is returned)."""
    sys.path.insert(0, str(BENCH))
    from lsp_latency import Client

    files = sorted(p for p in root.rglob("*") if p.suffix in OPENCL_EXTS and p.is_file())
    if len(files) > limit:
        step = len(files) / limit
        files = [files[int(i * step)] for i in range(limit)]
    client = Client([cllint, "server"], cwd=str(root))
    client.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                  "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                                  "capabilities": {"textDocument": {"publishDiagnostics": {}}},
                                  "initializationOptions": {"diagnosticMode": "push"}}, timeout=300)
    client.notify("initialized", {})
    reports: list[dict] = []
    import queue as _queue

    # Settled means read through the programs: wait for the server's word that the workspace
    # is read (a large one takes longer than the quiet window; a file judged before it lands
    # holds back what needs its program). A server that never says so is waited for `read_s`.
    try:
        client.wait(lambda m: m.get("method") == "window/logMessage"
                    and "workspace read" in str(m.get("params", {}).get("message", "")), timeout=read_s)
    except _queue.Empty:
        pass

    for start in range(0, len(files), batch):
        chunk = files[start:start + batch]
        last: dict[str, list] = {}
        for f in chunk:
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": f.as_uri(), "languageId": "opencl", "version": 1,
                "text": f.read_bytes().decode("utf-8", "replace")}})
        deadline = time.perf_counter() + 600
        while time.perf_counter() < deadline:
            try:
                _, msg = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics",
                                     timeout=quiet_s)
            except _queue.Empty:
                if len(last) >= len(chunk):
                    break
                continue
            last[msg["params"]["uri"]] = msg["params"]["diagnostics"]
        for uri, diags in last.items():
            for d in diags:
                sev = {1: "error", 2: "warning", 3: "info", 4: "info"}.get(d.get("severity", 1), "info")
                reports.append({"path": uri, "line": d["range"]["start"]["line"] + 1, "severity": sev,
                                "code": str(d.get("code", "")), "message": d["message"]})
        for f in chunk:
            client.notify("textDocument/didClose", {"textDocument": {"uri": f.as_uri()}})
    client.close()
    return reports, len(files)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=["tune", "validate", "validate2", "validate3", "validate4", "validate5", "validate16", "all"], default="tune")
    ap.add_argument("--project", action="append", help="only these projects")
    ap.add_argument("--codes", action="store_true", help="reports per code, per project")
    ap.add_argument("--show", metavar="CODE", help="print every report of this code (tune projects only)")
    ap.add_argument("--cllint", default=str(ROOT / ".venv" / "bin" / "cllint"))
    ap.add_argument("--json", metavar="FILE", help="write the per-project figures here")
    ap.add_argument("--server", action="store_true",
                    help="open every OpenCL file in `cllint server` (clang layer on) instead of `cllint check .`")
    ap.add_argument("--server-files", type=int, default=300, help="at most this many files per project (--server)")
    args = ap.parse_args(argv)

    names = args.project or [n for n in sorted(PROJECTS) if args.split in ("all", split_of(n))]
    if args.show and any(split_of(n) != "tune" for n in names):
        ap.error("--show reads reports: tune projects only")
    # a held-out project is scored only where its split is asked for by name (once a session)
    held = [n for n in names if n in PROJECTS and split_of(n) != "tune" and args.split not in (split_of(n), "all")]
    if held:
        ap.error(f"held out: {', '.join(held)}: name its split with --split to score it")
    rows = []
    failed: list[str] = []
    print(f"{'project':15} {'split':8} {'kLOC':>7} {'errors':>7} {'warn':>6} {'info':>6} {'err/kLOC':>9} {'warn/kLOC':>9} {'s':>6}")
    for name in names:
        root = checkout(name)
        if root is None:
            print(f"{name:15} (no snapshot: fetch github:{PROJECTS[name][0]})")
            continue
        kloc = opencl_lines(root) / 1000
        if args.server:
            t0 = time.perf_counter()
            reports, opened = run_server(root, args.cllint, args.server_files)
            elapsed, err = time.perf_counter() - t0, ""
            total = sum(1 for p in root.rglob("*") if p.suffix in OPENCL_EXTS and p.is_file())
            if opened < total:  # per kLOC of the files opened
                kloc = sum(p.read_bytes().count(b"\n") for p in sorted(
                    q for q in root.rglob("*") if q.suffix in OPENCL_EXTS and q.is_file())[::max(1, total // opened)]
                    [:opened]) / 1000
        else:
            reports, elapsed, err = run_check(root, args.cllint)
        sev = Counter(r["severity"] for r in reports)
        rows.append({"project": name, "split": split_of(name), "kloc": round(kloc, 2),
                     "errors": sev["error"], "warnings": sev["warning"], "info": sev["info"],
                     "seconds": round(elapsed, 1),
                     "codes": dict(Counter(f"{r['code']}:{r['severity'][0]}" for r in reports).most_common())})
        e_k = sev["error"] / kloc if kloc else 0.0
        w_k = sev["warning"] / kloc if kloc else 0.0
        print(f"{name:15} {split_of(name):8} {kloc:7.1f} {sev['error']:7} {sev['warning']:6} {sev['info']:6} "
              f"{e_k:9.2f} {w_k:9.2f} {elapsed:6.1f}")
        if err:
            failed.append(name)
            print(f"   cllint failed: {err.strip()[-500:]}")
        if args.codes:
            print("   " + ", ".join(f"{c} {n}" for c, n in Counter(
                f"{r['code']}" for r in reports if r["severity"] != "info").most_common(12)))
        if args.show:
            for r in reports:
                if r["code"] == args.show:
                    print(f"   {r['path']}:{r['line']}:{r.get('column', '')}: {r['message']}")
    if rows:
        kloc = sum(r["kloc"] for r in rows)
        errs = sum(r["errors"] for r in rows)
        warns = sum(r["warnings"] for r in rows)
        worst = max(rows, key=lambda r: r["errors"] / r["kloc"] if r["kloc"] else 0)
        print(f"{'total':15} {'':8} {kloc:7.1f} {errs:7} {warns:6} {'':6} {errs / kloc:9.2f} {warns / kloc:9.2f}")
        met = sum(1 for r in rows if r["kloc"] and r["errors"] / r["kloc"] <= 0.1 and r["warnings"] / r["kloc"] <= 1)
        print(f"projects within 0.1 errors and 1 warning per kLOC: {met}/{len(rows)}; "
              f"worst: {worst['project']} {worst['errors'] / worst['kloc'] if worst['kloc'] else 0:.2f} errors/kLOC")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    if failed:
        print(f"cllint FAILED on: {', '.join(failed)} (their figures are not counts)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
