#define LOK_USE_UNSTABLE_API
#include <LibreOfficeKit/LibreOfficeKitInit.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
/* LibreOfficeKit's own floor for Quire's office engine: start the office, then load each file
 * and export it as PDF (page 1 only, every page, or nothing), timing each step.
 *
 *   cc -O2 -o office-lok bench/floors/office-lok.c -ldl
 *   DCONF_PROFILE=/dev/null ./office-lok file:///tmp/profile /tmp/out MODE FILE...
 *
 * MODE: p1 (PDF of page 1), full (every page), load (load only). A profile directory used a
 * second time starts in ~0.08 s; a new one in ~0.58 s unless it records ooSetupLastVersion
 * (see docs/notes/office.md). */
int main(int argc,char**argv){
  double t0=now();
  LibreOfficeKit*k=lok_init_2("/usr/lib/libreoffice/program",argv[1]);
  if(!k){fprintf(stderr,"init failed\n");return 1;}
  double t1=now(); int ok=0; double load=0, save=0;
  for(int i=4;i<argc;i++){
    char url[4096]; snprintf(url,sizeof url,"file://%s",argv[i]);
    double a=now();
    LibreOfficeKitDocument*d=k->pClass->documentLoadWithOptions(k,url,"Language=en-US");
    double b=now(); load+=b-a;
    if(!d) continue;
    char out[4096]; snprintf(out,sizeof out,"file://%s/%d.pdf",argv[2],i);
    if(strcmp(argv[3],"load")!=0){
      const char*opt=strcmp(argv[3],"p1")==0?"{\"PageRange\":{\"type\":\"string\",\"value\":\"1\"}}":NULL;
      if(d->pClass->saveAs(d,out,"pdf",opt)) ok++;
    } else ok++;
    save+=now()-b;
    d->pClass->destroy(d);
  }
  fprintf(stderr,"init %.3f files %d ok %d load %.3f save %.3f total %.3f\n",t1-t0,argc-4,ok,load,save,now()-t0);
  _exit(0);
}
