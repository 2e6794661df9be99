package dumpi

// The function table: DUMPI's function labels in the order of the
// dumpi_function enum of the writer (sst-dumpi dumpi/common/funclabels.h,
// the version with MPI_Pcontrol, which the shared traces use), each with
// the layout of its arguments as the writer stores them (the
// dumpi_write_* functions of sst-dumpi dumpi/common/dumpiio.c). Argument
// names are the ones dumpi2ascii prints.
//
// A layout is a space-separated list of name:kind, read in order:
//
//	i int32          c communicator (u16)  g group (u16)
//	d datatype (u16) h other handle (u16)  b 8-bit enum (op, ...)
//	l int64          s statuses (see readStatuses)
//	I []int32        D []datatype (u16)    H []handle (u16)
//	B []u8           S string (u32 length) A []string (u32 count)
//	T [][]string     J [][]int32           a MPI_Init's argv
//
// "?x=y" opens a group of fields present only when the fields x and y
// already read are equal (the root-only arguments of MPI_Gather and
// friends); ";" closes it. A kind followed by "@M.m.p" is read as a single
// int32 in traces older than version M.m.p (writer bugs fixed then). "!"
// marks a function whose layout is unknown (no writer stores it).

// Function ids of the enum, in order.
const (
	fnSend                   FuncID = iota // MPI_Send
	fnRecv                                 // MPI_Recv
	fnGetCount                             // MPI_Get_count
	fnBsend                                // MPI_Bsend
	fnSsend                                // MPI_Ssend
	fnRsend                                // MPI_Rsend
	fnBufferAttach                         // MPI_Buffer_attach
	fnBufferDetach                         // MPI_Buffer_detach
	fnIsend                                // MPI_Isend
	fnIbsend                               // MPI_Ibsend
	fnIssend                               // MPI_Issend
	fnIrsend                               // MPI_Irsend
	fnIrecv                                // MPI_Irecv
	fnWait                                 // MPI_Wait
	fnTest                                 // MPI_Test
	fnRequestFree                          // MPI_Request_free
	fnWaitany                              // MPI_Waitany
	fnTestany                              // MPI_Testany
	fnWaitall                              // MPI_Waitall
	fnTestall                              // MPI_Testall
	fnWaitsome                             // MPI_Waitsome
	fnTestsome                             // MPI_Testsome
	fnIprobe                               // MPI_Iprobe
	fnProbe                                // MPI_Probe
	fnCancel                               // MPI_Cancel
	fnTestCancelled                        // MPI_Test_cancelled
	fnSendInit                             // MPI_Send_init
	fnBsendInit                            // MPI_Bsend_init
	fnSsendInit                            // MPI_Ssend_init
	fnRsendInit                            // MPI_Rsend_init
	fnRecvInit                             // MPI_Recv_init
	fnStart                                // MPI_Start
	fnStartall                             // MPI_Startall
	fnSendrecv                             // MPI_Sendrecv
	fnSendrecvReplace                      // MPI_Sendrecv_replace
	fnTypeContiguous                       // MPI_Type_contiguous
	fnTypeVector                           // MPI_Type_vector
	fnTypeHvector                          // MPI_Type_hvector
	fnTypeIndexed                          // MPI_Type_indexed
	fnTypeHindexed                         // MPI_Type_hindexed
	fnTypeStruct                           // MPI_Type_struct
	fnAddress                              // MPI_Address
	fnTypeExtent                           // MPI_Type_extent
	fnTypeSize                             // MPI_Type_size
	fnTypeLb                               // MPI_Type_lb
	fnTypeUb                               // MPI_Type_ub
	fnTypeCommit                           // MPI_Type_commit
	fnTypeFree                             // MPI_Type_free
	fnGetElements                          // MPI_Get_elements
	fnPack                                 // MPI_Pack
	fnUnpack                               // MPI_Unpack
	fnPackSize                             // MPI_Pack_size
	fnBarrier                              // MPI_Barrier
	fnBcast                                // MPI_Bcast
	fnGather                               // MPI_Gather
	fnGatherv                              // MPI_Gatherv
	fnScatter                              // MPI_Scatter
	fnScatterv                             // MPI_Scatterv
	fnAllgather                            // MPI_Allgather
	fnAllgatherv                           // MPI_Allgatherv
	fnAlltoall                             // MPI_Alltoall
	fnAlltoallv                            // MPI_Alltoallv
	fnReduce                               // MPI_Reduce
	fnOpCreate                             // MPI_Op_create
	fnOpFree                               // MPI_Op_free
	fnAllreduce                            // MPI_Allreduce
	fnReduceScatter                        // MPI_Reduce_scatter
	fnScan                                 // MPI_Scan
	fnGroupSize                            // MPI_Group_size
	fnGroupRank                            // MPI_Group_rank
	fnGroupTranslateRanks                  // MPI_Group_translate_ranks
	fnGroupCompare                         // MPI_Group_compare
	fnCommGroup                            // MPI_Comm_group
	fnGroupUnion                           // MPI_Group_union
	fnGroupIntersection                    // MPI_Group_intersection
	fnGroupDifference                      // MPI_Group_difference
	fnGroupIncl                            // MPI_Group_incl
	fnGroupExcl                            // MPI_Group_excl
	fnGroupRangeIncl                       // MPI_Group_range_incl
	fnGroupRangeExcl                       // MPI_Group_range_excl
	fnGroupFree                            // MPI_Group_free
	fnCommSize                             // MPI_Comm_size
	fnCommRank                             // MPI_Comm_rank
	fnCommCompare                          // MPI_Comm_compare
	fnCommDup                              // MPI_Comm_dup
	fnCommCreate                           // MPI_Comm_create
	fnCommSplit                            // MPI_Comm_split
	fnCommFree                             // MPI_Comm_free
	fnCommTestInter                        // MPI_Comm_test_inter
	fnCommRemoteSize                       // MPI_Comm_remote_size
	fnCommRemoteGroup                      // MPI_Comm_remote_group
	fnIntercommCreate                      // MPI_Intercomm_create
	fnIntercommMerge                       // MPI_Intercomm_merge
	fnKeyvalCreate                         // MPI_Keyval_create
	fnKeyvalFree                           // MPI_Keyval_free
	fnAttrPut                              // MPI_Attr_put
	fnAttrGet                              // MPI_Attr_get
	fnAttrDelete                           // MPI_Attr_delete
	fnTopoTest                             // MPI_Topo_test
	fnCartCreate                           // MPI_Cart_create
	fnDimsCreate                           // MPI_Dims_create
	fnGraphCreate                          // MPI_Graph_create
	fnGraphdimsGet                         // MPI_Graphdims_get
	fnGraphGet                             // MPI_Graph_get
	fnCartdimGet                           // MPI_Cartdim_get
	fnCartGet                              // MPI_Cart_get
	fnCartRank                             // MPI_Cart_rank
	fnCartCoords                           // MPI_Cart_coords
	fnGraphNeighborsCount                  // MPI_Graph_neighbors_count
	fnGraphNeighbors                       // MPI_Graph_neighbors
	fnCartShift                            // MPI_Cart_shift
	fnCartSub                              // MPI_Cart_sub
	fnCartMap                              // MPI_Cart_map
	fnGraphMap                             // MPI_Graph_map
	fnGetProcessorName                     // MPI_Get_processor_name
	fnGetVersion                           // MPI_Get_version
	fnErrhandlerCreate                     // MPI_Errhandler_create
	fnErrhandlerSet                        // MPI_Errhandler_set
	fnErrhandlerGet                        // MPI_Errhandler_get
	fnErrhandlerFree                       // MPI_Errhandler_free
	fnErrorString                          // MPI_Error_string
	fnErrorClass                           // MPI_Error_class
	fnWtime                                // MPI_Wtime
	fnWtick                                // MPI_Wtick
	fnInit                                 // MPI_Init
	fnFinalize                             // MPI_Finalize
	fnInitialized                          // MPI_Initialized
	fnAbort                                // MPI_Abort
	fnPcontrol                             // MPI_Pcontrol
	fnClosePort                            // MPI_Close_port
	fnCommAccept                           // MPI_Comm_accept
	fnCommConnect                          // MPI_Comm_connect
	fnCommDisconnect                       // MPI_Comm_disconnect
	fnCommGetParent                        // MPI_Comm_get_parent
	fnCommJoin                             // MPI_Comm_join
	fnCommSpawn                            // MPI_Comm_spawn
	fnCommSpawnMultiple                    // MPI_Comm_spawn_multiple
	fnLookupName                           // MPI_Lookup_name
	fnOpenPort                             // MPI_Open_port
	fnPublishName                          // MPI_Publish_name
	fnUnpublishName                        // MPI_Unpublish_name
	fnAccumulate                           // MPI_Accumulate
	fnGet                                  // MPI_Get
	fnPut                                  // MPI_Put
	fnWinComplete                          // MPI_Win_complete
	fnWinCreate                            // MPI_Win_create
	fnWinFence                             // MPI_Win_fence
	fnWinFree                              // MPI_Win_free
	fnWinGetGroup                          // MPI_Win_get_group
	fnWinLock                              // MPI_Win_lock
	fnWinPost                              // MPI_Win_post
	fnWinStart                             // MPI_Win_start
	fnWinTest                              // MPI_Win_test
	fnWinUnlock                            // MPI_Win_unlock
	fnWinWait                              // MPI_Win_wait
	fnAlltoallw                            // MPI_Alltoallw
	fnExscan                               // MPI_Exscan
	fnAddErrorClass                        // MPI_Add_error_class
	fnAddErrorCode                         // MPI_Add_error_code
	fnAddErrorString                       // MPI_Add_error_string
	fnCommCallErrhandler                   // MPI_Comm_call_errhandler
	fnCommCreateKeyval                     // MPI_Comm_create_keyval
	fnCommDeleteAttr                       // MPI_Comm_delete_attr
	fnCommFreeKeyval                       // MPI_Comm_free_keyval
	fnCommGetAttr                          // MPI_Comm_get_attr
	fnCommGetName                          // MPI_Comm_get_name
	fnCommSetAttr                          // MPI_Comm_set_attr
	fnCommSetName                          // MPI_Comm_set_name
	fnFileCallErrhandler                   // MPI_File_call_errhandler
	fnGrequestComplete                     // MPI_Grequest_complete
	fnGrequestStart                        // MPI_Grequest_start
	fnInitThread                           // MPI_Init_thread
	fnIsThreadMain                         // MPI_Is_thread_main
	fnQueryThread                          // MPI_Query_thread
	fnStatusSetCancelled                   // MPI_Status_set_cancelled
	fnStatusSetElements                    // MPI_Status_set_elements
	fnTypeCreateKeyval                     // MPI_Type_create_keyval
	fnTypeDeleteAttr                       // MPI_Type_delete_attr
	fnTypeDup                              // MPI_Type_dup
	fnTypeFreeKeyval                       // MPI_Type_free_keyval
	fnTypeGetAttr                          // MPI_Type_get_attr
	fnTypeGetContents                      // MPI_Type_get_contents
	fnTypeGetEnvelope                      // MPI_Type_get_envelope
	fnTypeGetName                          // MPI_Type_get_name
	fnTypeSetAttr                          // MPI_Type_set_attr
	fnTypeSetName                          // MPI_Type_set_name
	fnTypeMatchSize                        // MPI_Type_match_size
	fnWinCallErrhandler                    // MPI_Win_call_errhandler
	fnWinCreateKeyval                      // MPI_Win_create_keyval
	fnWinDeleteAttr                        // MPI_Win_delete_attr
	fnWinFreeKeyval                        // MPI_Win_free_keyval
	fnWinGetAttr                           // MPI_Win_get_attr
	fnWinGetName                           // MPI_Win_get_name
	fnWinSetAttr                           // MPI_Win_set_attr
	fnWinSetName                           // MPI_Win_set_name
	fnAllocMem                             // MPI_Alloc_mem
	fnCommCreateErrhandler                 // MPI_Comm_create_errhandler
	fnCommGetErrhandler                    // MPI_Comm_get_errhandler
	fnCommSetErrhandler                    // MPI_Comm_set_errhandler
	fnFileCreateErrhandler                 // MPI_File_create_errhandler
	fnFileGetErrhandler                    // MPI_File_get_errhandler
	fnFileSetErrhandler                    // MPI_File_set_errhandler
	fnFinalized                            // MPI_Finalized
	fnFreeMem                              // MPI_Free_mem
	fnGetAddress                           // MPI_Get_address
	fnInfoCreate                           // MPI_Info_create
	fnInfoDelete                           // MPI_Info_delete
	fnInfoDup                              // MPI_Info_dup
	fnInfoFree                             // MPI_Info_free
	fnInfoGet                              // MPI_Info_get
	fnInfoGetNkeys                         // MPI_Info_get_nkeys
	fnInfoGetNthkey                        // MPI_Info_get_nthkey
	fnInfoGetValuelen                      // MPI_Info_get_valuelen
	fnInfoSet                              // MPI_Info_set
	fnPackExternal                         // MPI_Pack_external
	fnPackExternalSize                     // MPI_Pack_external_size
	fnRequestGetStatus                     // MPI_Request_get_status
	fnTypeCreateDarray                     // MPI_Type_create_darray
	fnTypeCreateHindexed                   // MPI_Type_create_hindexed
	fnTypeCreateHvector                    // MPI_Type_create_hvector
	fnTypeCreateIndexedBlock               // MPI_Type_create_indexed_block
	fnTypeCreateResized                    // MPI_Type_create_resized
	fnTypeCreateStruct                     // MPI_Type_create_struct
	fnTypeCreateSubarray                   // MPI_Type_create_subarray
	fnTypeGetExtent                        // MPI_Type_get_extent
	fnTypeGetTrueExtent                    // MPI_Type_get_true_extent
	fnUnpackExternal                       // MPI_Unpack_external
	fnWinCreateErrhandler                  // MPI_Win_create_errhandler
	fnWinGetErrhandler                     // MPI_Win_get_errhandler
	fnWinSetErrhandler                     // MPI_Win_set_errhandler
	fnFileOpen                             // MPI_File_open
	fnFileClose                            // MPI_File_close
	fnFileDelete                           // MPI_File_delete
	fnFileSetSize                          // MPI_File_set_size
	fnFilePreallocate                      // MPI_File_preallocate
	fnFileGetSize                          // MPI_File_get_size
	fnFileGetGroup                         // MPI_File_get_group
	fnFileGetAmode                         // MPI_File_get_amode
	fnFileSetInfo                          // MPI_File_set_info
	fnFileGetInfo                          // MPI_File_get_info
	fnFileSetView                          // MPI_File_set_view
	fnFileGetView                          // MPI_File_get_view
	fnFileReadAt                           // MPI_File_read_at
	fnFileReadAtAll                        // MPI_File_read_at_all
	fnFileWriteAt                          // MPI_File_write_at
	fnFileWriteAtAll                       // MPI_File_write_at_all
	fnFileIreadAt                          // MPI_File_iread_at
	fnFileIwriteAt                         // MPI_File_iwrite_at
	fnFileRead                             // MPI_File_read
	fnFileReadAll                          // MPI_File_read_all
	fnFileWrite                            // MPI_File_write
	fnFileWriteAll                         // MPI_File_write_all
	fnFileIread                            // MPI_File_iread
	fnFileIwrite                           // MPI_File_iwrite
	fnFileSeek                             // MPI_File_seek
	fnFileGetPosition                      // MPI_File_get_position
	fnFileGetByteOffset                    // MPI_File_get_byte_offset
	fnFileReadShared                       // MPI_File_read_shared
	fnFileWriteShared                      // MPI_File_write_shared
	fnFileIreadShared                      // MPI_File_iread_shared
	fnFileIwriteShared                     // MPI_File_iwrite_shared
	fnFileReadOrdered                      // MPI_File_read_ordered
	fnFileWriteOrdered                     // MPI_File_write_ordered
	fnFileSeekShared                       // MPI_File_seek_shared
	fnFileGetPositionShared                // MPI_File_get_position_shared
	fnFileReadAtAllBegin                   // MPI_File_read_at_all_begin
	fnFileReadAtAllEnd                     // MPI_File_read_at_all_end
	fnFileWriteAtAllBegin                  // MPI_File_write_at_all_begin
	fnFileWriteAtAllEnd                    // MPI_File_write_at_all_end
	fnFileReadAllBegin                     // MPI_File_read_all_begin
	fnFileReadAllEnd                       // MPI_File_read_all_end
	fnFileWriteAllBegin                    // MPI_File_write_all_begin
	fnFileWriteAllEnd                      // MPI_File_write_all_end
	fnFileReadOrderedBegin                 // MPI_File_read_ordered_begin
	fnFileReadOrderedEnd                   // MPI_File_read_ordered_end
	fnFileWriteOrderedBegin                // MPI_File_write_ordered_begin
	fnFileWriteOrderedEnd                  // MPI_File_write_ordered_end
	fnFileGetTypeExtent                    // MPI_File_get_type_extent
	fnRegisterDatarep                      // MPI_Register_datarep
	fnFileSetAtomicity                     // MPI_File_set_atomicity
	fnFileGetAtomicity                     // MPI_File_get_atomicity
	fnFileSync                             // MPI_File_sync
	fnIOTest                               // MPIO_Test
	fnIOWait                               // MPIO_Wait
	fnIOTestall                            // MPIO_Testall
	fnIOWaitall                            // MPIO_Waitall
	fnIOTestany                            // MPIO_Testany
	fnIOWaitany                            // MPIO_Waitany
	fnIOWaitsome                           // MPIO_Waitsome
	fnIOTestsome                           // MPIO_Testsome
	// fnAllFunctions is the sentinel after the last MPI function; the
	// footer's call counts run from 0 to it inclusive.
	fnAllFunctions
	// fnFunctionEnter and fnFunctionExit mark entry to and exit from a
	// profiled (non-MPI) function.
	fnFunctionEnter
	fnFunctionExit
	// fnEndOfStream ends the stream of records.
	fnEndOfStream
)

// funcTable holds the name and argument layout of every function id below
// fnAllFunctions, and of the two profiling labels.
var funcTable = [fnEndOfStream]struct{ name, layout string }{
	{"MPI_Send", "count:i datatype:d dest:i tag:i comm:c"},
	{"MPI_Recv", "count:i datatype:d source:i tag:i comm:c status:s"},
	{"MPI_Get_count", "status:s datatype:d count:i"},
	{"MPI_Bsend", "count:i datatype:d dest:i tag:i comm:c"},
	{"MPI_Ssend", "count:i datatype:d dest:i tag:i comm:c"},
	{"MPI_Rsend", "count:i datatype:d dest:i tag:i comm:c"},
	{"MPI_Buffer_attach", "size:i"},
	{"MPI_Buffer_detach", "size:i"},
	{"MPI_Isend", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Ibsend", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Issend", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Irsend", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Irecv", "count:i datatype:d source:i tag:i comm:c request:i"},
	{"MPI_Wait", "request:i status:s"},
	{"MPI_Test", "request:i flag:i status:s"},
	{"MPI_Request_free", "request:i"},
	{"MPI_Waitany", "count:i requests:I index:i status:s"},
	{"MPI_Testany", "count:i requests:I index:i flag:i status:s"},
	{"MPI_Waitall", "count:i requests:I statuses:s"},
	{"MPI_Testall", "count:i requests:I flag:i statuses:s"},
	{"MPI_Waitsome", "count:i requests:I outcount:i indices:I statuses:s"},
	{"MPI_Testsome", "count:i requests:I outcount:i indices:I statuses:s"},
	{"MPI_Iprobe", "source:i tag:i comm:c flag:i status:s"},
	{"MPI_Probe", "source:i tag:i comm:c status:s"},
	{"MPI_Cancel", "request:i"},
	{"MPI_Test_cancelled", "status:s cancelled:i"},
	{"MPI_Send_init", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Bsend_init", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Ssend_init", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Rsend_init", "count:i datatype:d dest:i tag:i comm:c request:i"},
	{"MPI_Recv_init", "count:i datatype:d source:i tag:i comm:c request:i"},
	{"MPI_Start", "request:i"},
	{"MPI_Startall", "count:i requests:I"},
	{"MPI_Sendrecv", "sendcount:i sendtype:d dest:i sendtag:i recvcount:i recvtype:d source:i recvtag:i comm:c status:s"},
	{"MPI_Sendrecv_replace", "count:i datatype:d dest:i sendtag:i source:i recvtag:i comm:c status:s"},
	{"MPI_Type_contiguous", "count:i oldtype:d newtype:d"},
	{"MPI_Type_vector", "count:i blocklength:i stride:i oldtype:d newtype:d"},
	{"MPI_Type_hvector", "count:i blocklength:i stride:i oldtype:d newtype:d"},
	{"MPI_Type_indexed", "count:i lengths:I indices:I oldtype:d newtype:d"},
	{"MPI_Type_hindexed", "count:i lengths:I indices:I oldtype:d newtype:d"},
	{"MPI_Type_struct", "count:i lengths:I indices:I@0.6.9 oldtypes:D newtype:d"},
	{"MPI_Address", "address:i"},
	{"MPI_Type_extent", "datatype:d extent:i"},
	{"MPI_Type_size", "datatype:d size:i"},
	{"MPI_Type_lb", "datatype:d lb:i"},
	{"MPI_Type_ub", "datatype:d ub:i"},
	{"MPI_Type_commit", "datatype:d"},
	{"MPI_Type_free", "datatype:d"},
	{"MPI_Get_elements", "status:s datatype:d elements:i"},
	{"MPI_Pack", "incount:i datatype:d outcount:i position.in:i position.out:i comm:c"},
	{"MPI_Unpack", "incount:i position.in:i position.out:i outcount:i datatype:d comm:c"},
	{"MPI_Pack_size", "incount:i datatype:d comm:c size:i"},
	{"MPI_Barrier", "comm:c"},
	{"MPI_Bcast", "count:i datatype:d root:i comm:c"},
	{"MPI_Gather", "commrank:i sendcount:i sendtype:d root:i comm:c ?commrank=root recvcount:i recvtype:d ;"},
	{"MPI_Gatherv", "commrank:i commsize:i sendcount:i sendtype:d root:i comm:c ?commrank=root recvcounts:I displs:I ; recvtype:d"},
	{"MPI_Scatter", "commrank:i recvcount:i recvtype:d root:i comm:c ?commrank=root sendcount:i sendtype:d ;"},
	{"MPI_Scatterv", "commrank:i commsize:i sendtype:d recvcount:i recvtype:d root:i comm:c ?commrank=root sendcounts:I displs:I ;"},
	{"MPI_Allgather", "sendcount:i sendtype:d recvcount:i recvtype:d comm:c"},
	{"MPI_Allgatherv", "commsize:i sendcount:i sendtype:d recvcounts:I displs:I recvtype:d comm:c"},
	{"MPI_Alltoall", "sendcount:i sendtype:d recvcount:i recvtype:d comm:c"},
	{"MPI_Alltoallv", "commsize:i sendcounts:I senddispls:I sendtype:d recvcounts:I recvdispls:I recvtype:d comm:c"},
	{"MPI_Reduce", "count:i datatype:d op:b root:i comm:c"},
	{"MPI_Op_create", "commute:i op:b"},
	{"MPI_Op_free", "op:b"},
	{"MPI_Allreduce", "count:i datatype:d op:b comm:c"},
	{"MPI_Reduce_scatter", "commsize:i recvcounts:I datatype:d op:b comm:c"},
	{"MPI_Scan", "count:i datatype:d op:b comm:c"},
	{"MPI_Group_size", "group:g size:i"},
	{"MPI_Group_rank", "group:g rank:i"},
	{"MPI_Group_translate_ranks", "group1:g count:i ranks1:I group2:g ranks2:I"},
	{"MPI_Group_compare", "group1:g group2:g result:b"},
	{"MPI_Comm_group", "comm:c group:g"},
	{"MPI_Group_union", "group1:g group2:g newgroup:g"},
	{"MPI_Group_intersection", "group1:g group2:g newgroup:g"},
	{"MPI_Group_difference", "group1:g group2:g newgroup:g"},
	{"MPI_Group_incl", "group:g count:i ranks:I newgroup:g"},
	{"MPI_Group_excl", "group:g count:i ranks:I newgroup:g"},
	{"MPI_Group_range_incl", "group:g count:i ranges:J newgroup:g"},
	{"MPI_Group_range_excl", "group:g count:i ranges:J newgroup:g"},
	{"MPI_Group_free", "group:g"},
	{"MPI_Comm_size", "comm:c size:i"},
	{"MPI_Comm_rank", "comm:c rank:i"},
	{"MPI_Comm_compare", "comm1:c comm2:c result:b"},
	{"MPI_Comm_dup", "oldcomm:c newcomm:c"},
	{"MPI_Comm_create", "oldcomm:c group:g newcomm:c"},
	{"MPI_Comm_split", "oldcomm:c color:i key:i newcomm:c"},
	{"MPI_Comm_free", "comm:c"},
	{"MPI_Comm_test_inter", "comm:c inter:i"},
	{"MPI_Comm_remote_size", "comm:c size:i"},
	{"MPI_Comm_remote_group", "comm:c group:g"},
	{"MPI_Intercomm_create", "localcomm:c localleader:i remotecomm:c remoteleader:i tag:i newcomm:c"},
	{"MPI_Intercomm_merge", "comm:c high:i newcomm:c"},
	{"MPI_Keyval_create", "key:h"},
	{"MPI_Keyval_free", "key:h"},
	{"MPI_Attr_put", "comm:c key:i"},
	{"MPI_Attr_get", "comm:c key:i flag:i"},
	{"MPI_Attr_delete", "comm:c key:i"},
	{"MPI_Topo_test", "comm:c topo:b"},
	{"MPI_Cart_create", "oldcomm:c ndim:i dims:I periods:I reorder:i newcomm:c"},
	{"MPI_Dims_create", "nodes:i ndim:i dims.in:I dims.out:I"},
	{"MPI_Graph_create", "numedges:i oldcomm:c nodes:i index:I edges:I reorder:i newcomm:c"},
	{"MPI_Graphdims_get", "comm:c nodes:i edges:i"},
	{"MPI_Graph_get", "totedges:i totnodes:i comm:c maxindex:i maxedges:i index:I edges:I"},
	{"MPI_Cartdim_get", "comm:c ndim:i"},
	{"MPI_Cart_get", "ndim:i comm:c maxdims:i dims:I periods:I coords:I@0.6.8"},
	{"MPI_Cart_rank", "ndim:i comm:c coords:I rank:i"},
	{"MPI_Cart_coords", "ndim:i comm:c rank:i maxdims:i coords:I"},
	{"MPI_Graph_neighbors_count", "comm:c rank:i nneigh:i"},
	{"MPI_Graph_neighbors", "nneigh:i comm:c rank:i maxneighbors:i neighbors:I"},
	{"MPI_Cart_shift", "comm:c direction:i displ:i source:i dest:i"},
	{"MPI_Cart_sub", "ndim:i oldcomm:c remain_dims:I newcomm:c"},
	{"MPI_Cart_map", "comm:c ndim:i dims:I period:I newrank:i"},
	{"MPI_Graph_map", "numedges:i comm:c nodes:i index:I edges:I newrank:i"},
	{"MPI_Get_processor_name", "name:S resultlen:i"},
	{"MPI_Get_version", "version:i subversion:i"},
	{"MPI_Errhandler_create", "errhandler:h"},
	{"MPI_Errhandler_set", "comm:c errhandler:h"},
	{"MPI_Errhandler_get", "comm:c errhandler:h"},
	{"MPI_Errhandler_free", "errhandler:h"},
	{"MPI_Error_string", "errorcode:i errorstring:S resultlen:i"},
	{"MPI_Error_class", "errorcode:i errorclass:i"},
	{"MPI_Wtime", ""},
	{"MPI_Wtick", ""},
	{"MPI_Init", "argv:a"},
	{"MPI_Finalize", ""},
	{"MPI_Initialized", "result:i"},
	{"MPI_Abort", "comm:c errorcode:i"},
	{"MPI_Pcontrol", "!"},
	{"MPI_Close_port", "portname:S"},
	{"MPI_Comm_accept", "portname:S info:h root:i oldcomm:c newcomm:c"},
	{"MPI_Comm_connect", "portname:S info:h root:i oldcomm:c newcomm:c"},
	{"MPI_Comm_disconnect", "comm:c"},
	{"MPI_Comm_get_parent", "parent:c"},
	{"MPI_Comm_join", "fd:i comm:c"},
	{"MPI_Comm_spawn", "oldcommrank:i root:i oldcomm:c newcomm:c ?oldcommrank=root command:S argv:A maxprocs:i info:h errcodes:I ;"},
	{"MPI_Comm_spawn_multiple", "totprocs:i oldcommrank:i root:i oldcomm:c newcomm:c ?oldcommrank=root count:i commands:A argvs:T maxprocs:I info:H errcodes:I ;"},
	{"MPI_Lookup_name", "servicename:S info:h portname:S"},
	{"MPI_Open_port", "info:h portname:S"},
	{"MPI_Publish_name", "servicename:S info:h portname:S"},
	{"MPI_Unpublish_name", "servicename:S info:h portname:S"},
	{"MPI_Accumulate", "origincount:i origintype:d targetrank:i targetdisp:i targetcount:i targettype:d op:b win:h"},
	{"MPI_Get", "origincount:i origintype:d targetrank:i targetdisp:i targetcount:i targettype:d win:h"},
	{"MPI_Put", "origincount:i origintype:d targetrank:i targetdisp:i targetcount:i targettype:d win:h"},
	{"MPI_Win_complete", "win:h"},
	{"MPI_Win_create", "size:i dispunit:i info:h comm:c win:h"},
	{"MPI_Win_fence", "assertion:b win:h"},
	{"MPI_Win_free", "win:h"},
	{"MPI_Win_get_group", "win:h group:g"},
	{"MPI_Win_lock", "locktype:b winrank:i assertion:b win:h"},
	{"MPI_Win_post", "group:g assertion:b win:h"},
	{"MPI_Win_start", "group:g assertion:b win:h"},
	{"MPI_Win_test", "win:h flag:i"},
	{"MPI_Win_unlock", "winrank:i win:h"},
	{"MPI_Win_wait", "win:h"},
	{"MPI_Alltoallw", "commsize:i sendcounts:I senddispls:I sendtypes:D recvcounts:I recvdispls:I recvtypes:D comm:c"},
	{"MPI_Exscan", "count:i datatype:d op:b comm:c"},
	{"MPI_Add_error_class", "errorclass:i"},
	{"MPI_Add_error_code", "errorclass:i errorcode:i"},
	{"MPI_Add_error_string", "errorcode:i errorstring:S"},
	{"MPI_Comm_call_errhandler", "comm:c errorcode:i"},
	{"MPI_Comm_create_keyval", "keyval:h"},
	{"MPI_Comm_delete_attr", "comm:c keyval:h"},
	{"MPI_Comm_free_keyval", "keyval:h"},
	{"MPI_Comm_get_attr", "comm:c keyval:h flag:i"},
	{"MPI_Comm_get_name", "comm:c name:S resultlen:i"},
	{"MPI_Comm_set_attr", "comm:c keyval:h"},
	{"MPI_Comm_set_name", "comm:c name:S"},
	{"MPI_File_call_errhandler", "file:h errorcode:i"},
	{"MPI_Grequest_complete", "request:i"},
	{"MPI_Grequest_start", "request:i"},
	{"MPI_Init_thread", "argv:A required:b provided:b"},
	{"MPI_Is_thread_main", "flag:i"},
	{"MPI_Query_thread", "supported:b"},
	{"MPI_Status_set_cancelled", "status:s flag:i"},
	{"MPI_Status_set_elements", "status:s datatype:d count:i"},
	{"MPI_Type_create_keyval", "keyval:h"},
	{"MPI_Type_delete_attr", "datatype:d keyval:h"},
	{"MPI_Type_dup", "oldtype:d newtype:d"},
	{"MPI_Type_free_keyval", "keyval:h"},
	{"MPI_Type_get_attr", "datatype:d keyval:h flag:i"},
	{"MPI_Type_get_contents", "numdatatypes:i numaddresses:i numintegers:i datatype:d maxintegers:i maxaddresses:i maxdatatypes:i arrintegers:I arraddresses:I arrdatatypes:D"},
	{"MPI_Type_get_envelope", "datatype:d numintegers:i numaddresses:i numdatatypes:i combiner:b"},
	{"MPI_Type_get_name", "datatype:d name:S resultlen:i"},
	{"MPI_Type_set_attr", "datatype:d keyval:h"},
	{"MPI_Type_set_name", "datatype:d name:S"},
	{"MPI_Type_match_size", "typeclass:b size:i datatype:d"},
	{"MPI_Win_call_errhandler", "win:h errorcode:i"},
	{"MPI_Win_create_keyval", "keyval:h"},
	{"MPI_Win_delete_attr", "win:h keyval:h"},
	{"MPI_Win_free_keyval", "keyval:h"},
	{"MPI_Win_get_attr", "win:h keyval:h flag:i"},
	{"MPI_Win_get_name", "win:h name:S resultlen:i"},
	{"MPI_Win_set_attr", "win:h keyval:h"},
	{"MPI_Win_set_name", "win:h name:S"},
	{"MPI_Alloc_mem", "size:i info:h"},
	{"MPI_Comm_create_errhandler", "errhandler:h"},
	{"MPI_Comm_get_errhandler", "comm:c errhandler:h"},
	{"MPI_Comm_set_errhandler", "comm:c errhandler:h"},
	{"MPI_File_create_errhandler", "errhandler:h"},
	{"MPI_File_get_errhandler", "file:h errhandler:h"},
	{"MPI_File_set_errhandler", "file:h errhandler:h"},
	{"MPI_Finalized", "flag:i"},
	{"MPI_Free_mem", ""},
	{"MPI_Get_address", "address:i"},
	{"MPI_Info_create", "info:h"},
	{"MPI_Info_delete", "info:h key:S"},
	{"MPI_Info_dup", "oldinfo:h newinfo:h"},
	{"MPI_Info_free", "info:h"},
	{"MPI_Info_get", "info:h key:S valuelength:i value:S flag:i"},
	{"MPI_Info_get_nkeys", "info:h nkeys:i"},
	{"MPI_Info_get_nthkey", "info:h n:i key:S"},
	{"MPI_Info_get_valuelen", "info:h key:S valuelen:i flag:i"},
	{"MPI_Info_set", "info:h key:S value:S"},
	{"MPI_Pack_external", "datarep:S incount:i intype:d outcount:i position.in:i position.out:i"},
	{"MPI_Pack_external_size", "datarep:S incount:i datatype:d size:i"},
	{"MPI_Request_get_status", "request:i flag:i status:s"},
	{"MPI_Type_create_darray", "size:i rank:i ndims:i gsizes:I distribs:B dargs:I psizes:I order:b oldtype:d newtype:d"},
	{"MPI_Type_create_hindexed", "count:i blocklengths:I displacements:I oldtype:d newtype:d"},
	{"MPI_Type_create_hvector", "count:i blocklength:i stride:i oldtype:d newtype:d"},
	{"MPI_Type_create_indexed_block", "count:i blocklength:i displacments:I oldtype:d newtype:d"},
	{"MPI_Type_create_resized", "oldtype:d lb:i extent:i newtype:d"},
	{"MPI_Type_create_struct", "count:i blocklengths:I displacements:I oldtypes:D newtype:d"},
	{"MPI_Type_create_subarray", "ndims:i sizes:I subsizes:I starts:I order:b oldtype:d newtype:d"},
	{"MPI_Type_get_extent", "datatype:d lb:i extent:i"},
	{"MPI_Type_get_true_extent", "datatype:d lb:i extent:i"},
	{"MPI_Unpack_external", "datarep:S insize:i position.in:i position.out:i outcount:i datatype:d"},
	{"MPI_Win_create_errhandler", "errhandler:h"},
	{"MPI_Win_get_errhandler", "win:h errhandler:h"},
	{"MPI_Win_set_errhandler", "win:h errhandler:h"},
	{"MPI_File_open", "comm:c filename:S amode:b info:h file:h"},
	{"MPI_File_close", "file:h"},
	{"MPI_File_delete", "filename:S info:h"},
	{"MPI_File_set_size", "file:h size:l"},
	{"MPI_File_preallocate", "file:h size:l"},
	{"MPI_File_get_size", "file:h size:l"},
	{"MPI_File_get_group", "file:h group:g"},
	{"MPI_File_get_amode", "file:h amode:b"},
	{"MPI_File_set_info", "file:h info:h"},
	{"MPI_File_get_info", "file:h info:h"},
	{"MPI_File_set_view", "file:h offset:l hosttype:d filetype:d datarep:S info:h"},
	{"MPI_File_get_view", "file:h offset:l hosttype:d filetype:d datarep:S"},
	{"MPI_File_read_at", "file:h offset:l count:i datatype:d status:s"},
	{"MPI_File_read_at_all", "file:h offset:l count:i datatype:d status:s"},
	{"MPI_File_write_at", "file:h offset:l count:i datatype:d status:s"},
	{"MPI_File_write_at_all", "file:h offset:l count:i datatype:d status:s"},
	{"MPI_File_iread_at", "file:h offset:l count:i datatype:d request:i"},
	{"MPI_File_iwrite_at", "file:h offset:l count:i datatype:d request:i"},
	{"MPI_File_read", "file:h count:i datatype:d status:s"},
	{"MPI_File_read_all", "file:h count:i datatype:d status:s"},
	{"MPI_File_write", "file:h count:i datatype:d status:s"},
	{"MPI_File_write_all", "file:h count:i datatype:d status:s"},
	{"MPI_File_iread", "file:h count:i datatype:d request:i"},
	{"MPI_File_iwrite", "file:h count:i datatype:d request:i"},
	{"MPI_File_seek", "file:h offset:l whence:b"},
	{"MPI_File_get_position", "file:h offset:l"},
	{"MPI_File_get_byte_offset", "file:h offset:l bytes:l"},
	{"MPI_File_read_shared", "file:h count:i datatype:d status:s"},
	{"MPI_File_write_shared", "file:h count:i datatype:d status:s"},
	{"MPI_File_iread_shared", "file:h count:i datatype:d request:i"},
	{"MPI_File_iwrite_shared", "file:h count:i datatype:d request:i"},
	{"MPI_File_read_ordered", "file:h count:i datatype:d status:s"},
	{"MPI_File_write_ordered", "file:h count:i datatype:d status:s"},
	{"MPI_File_seek_shared", "file:h offset:l whence:b"},
	{"MPI_File_get_position_shared", "file:h offset:l"},
	{"MPI_File_read_at_all_begin", "file:h offset:l count:i datatype:d"},
	{"MPI_File_read_at_all_end", "file:h status:s"},
	{"MPI_File_write_at_all_begin", "file:h offset:l count:i datatype:d"},
	{"MPI_File_write_at_all_end", "file:h status:s"},
	{"MPI_File_read_all_begin", "file:h count:i datatype:d"},
	{"MPI_File_read_all_end", "file:h status:s"},
	{"MPI_File_write_all_begin", "file:h count:i datatype:d"},
	{"MPI_File_write_all_end", "file:h status:s"},
	{"MPI_File_read_ordered_begin", "file:h count:i datatype:d"},
	{"MPI_File_read_ordered_end", "file:h status:s"},
	{"MPI_File_write_ordered_begin", "file:h count:i datatype:d"},
	{"MPI_File_write_ordered_end", "file:h status:s"},
	{"MPI_File_get_type_extent", "file:h datatype:d extent:i"},
	{"MPI_Register_datarep", "name:S"},
	{"MPI_File_set_atomicity", "file:h flag:i"},
	{"MPI_File_get_atomicity", "file:h flag:i"},
	{"MPI_File_sync", "file:h"},
	{"MPIO_Test", "request:i flag:i status:s"},
	{"MPIO_Wait", "request:i status:s"},
	{"MPIO_Testall", "count:i requests:I flag:i statuses:s"},
	{"MPIO_Waitall", "count:i requests:I statuses:s"},
	{"MPIO_Testany", "count:i requests:I flag:i index:i statuses:s"},
	{"MPIO_Waitany", "count:i requests:I index:i statuses:s"},
	{"MPIO_Waitsome", "count:i requests:I outcount:i indices:I statuses:s"},
	{"MPIO_Testsome", "count:i requests:I outcount:i indices:I statuses:s"},
	{"MPI_ALL_FUNCTIONS", "!"},
	{"DUMPI_Function_enter", "fn:l"},
	{"DUMPI_Function_exit", "fn:l"},
}
