"""A subshell's variables: shared with its parent until either side changes one, yet nothing
a subshell, pipeline stage, command substitution or background job changes reaches its
parent, and nothing the parent changes afterwards reaches them (``bash.state``'s owners).
Expected outputs are GNU bash 5.2's for the same scripts, run on this machine."""

from __future__ import annotations

from bash import run_script
from bash.memfs import MemoryFS


def run(script: str) -> str:
    memory = MemoryFS()
    memory.load(["/tmp"], [])
    result = run_script(script, root="/", filesystem=memory)
    assert result.stderr == b"" and result.exit_code == 0, result
    return result.stdout.decode()


def test_nothing_a_subshell_changes_reaches_its_parent() -> None:
    script = (
        "x=1; declare -a arr=(a b); declare -A m=([k]=v); export E=e; readonly R=r\n"
        "( x=2; arr[0]=z; m[k]=w; unset E; declare -i n=3; y=new ); echo \"A $x ${arr[0]} ${m[k]} $E ${y-unset}\"\n"
        "echo \"$(x=3; arr+=(c); declare -l L=UP; echo in $x ${#arr[@]} $L)\"; echo \"B $x ${#arr[@]} ${L-unset}\"\n"
        "echo pipe | { read x; arr[1]=q; echo \"stage $x ${arr[1]}\"; }; echo \"C $x ${arr[1]}\"\n"
        "f() { local x=loc; x=changed; ( x=sub; echo \"fsub $x\" ); echo \"f $x\"; }; f; echo \"D $x\"\n"
        "{ sleep 0; x=bg; echo \"bgjob $x\"; } & x=fg; wait; echo \"E $x\"\n"
        "declare -x P=1; ( declare +x P; env | grep -c '^P=' ); env | grep '^P='\n"
        "cnt=0; for i in 1 2 3; do v=$(echo $i); cnt=$((cnt + v)); done; echo \"F $cnt\"\n"
        "z=outer; echo one | while read w; do z=inner; done; echo \"G $z\"\n"
        "( R=s ) 2>/dev/null; echo \"H $R $?\"\n"
        "k=0; echo $(( k += 5 )) | cat; echo \"I $k\"\n"
    )
    assert run(script) == ("A 1 a v e unset\nin 3 3 up\nB 1 2 unset\nstage pipe q\nC 1 b\nfsub sub\n"
                           "f changed\nD 1\nbgjob bg\nE fg\n0\nP=1\nF 6\nG outer\nH r 1\n5\nI 0\n")


def test_what_the_parent_changes_after_starting_a_job_does_not_reach_the_job() -> None:
    script = (
        "x=before; arr=(1 2); { sleep 0.05; echo \"job sees $x ${arr[*]}\"; } & x=after; arr[0]=9; wait\n"
        "echo \"parent $x ${arr[*]}\"\n"
        "y=a; cat <(sleep 0.05; echo \"procsub sees $y\") & y=b; wait; echo \"parent $y\"\n"
    )
    assert run(script) == "job sees before 1 2\nparent after 9 2\nprocsub sees a\nparent b\n"


def test_a_variable_declared_and_then_assigned_keeps_its_attributes_across_forks() -> None:
    script = ("readonly r=1; ( r=2 ) 2>/dev/null; echo \"$? $r\"; declare -u up=a; echo $(up=b; echo $up) $up\n"
              "declare -A h; h[a]=1; ( h[b]=2; echo ${#h[@]} ); echo ${#h[@]}\n")
    assert run(script) == "1 1\nB A\n2\n1\n"


def test_a_run_that_changes_the_starting_variables_leaves_them_as_they_were_for_the_next() -> None:
    # every run starts from one shared set of variables (bash._initial_state)
    run("IFS=x; PATH=/p; BASH_VERSINFO[0]=9; export -n HOME; declare -r SHLVL; unset USER; OPTIND=7")
    assert run("printf '%q|' \"$IFS\" \"$PATH\" \"${BASH_VERSINFO[0]}\" \"$USER\" \"$OPTIND\"; "
               "env | grep -c '^HOME='; SHLVL=2; echo $SHLVL") == "$' \\t\\n'|/usr/local/bin:/usr/bin:/bin|5|user|1|1\n2\n"
